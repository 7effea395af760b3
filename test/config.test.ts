import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { rows } from './harness/table.js';

const PRODUCTION_RP = { WEBAUTHN_RP_IDS: 'wallet.example', WEBAUTHN_ORIGINS: 'https://wallet.example' };
/** Production on a PostgreSQL server, so that each case below has the one problem it is about. */
const PRODUCTION = { APP_ENV: 'production', DATABASE_URL: 'postgresql://u@h/db' };

describe('configuration', () => {
  it('has working defaults for the embedded sandbox', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.appEnv, 'sandbox');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.encryptionKeys, undefined);
    assert.equal(c.logLevel, 'info');
    assert.match(c.dataDir, /\/data$/);
    assert.match(c.screening.sources[0]?.path ?? '', /config\/screening\/ofac-sample$/, 'sandbox screens against the shipped sample');
    assert.deepEqual(loadConfig({ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP }).screening.sources, []);
    assert.deepEqual(c.webauthn, { rpIds: ['localhost'], origins: ['http://localhost:*', 'https://localhost:*'] });
  });

  it('names the variable in one line for every bad value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...PRODUCTION, ...PRODUCTION_RP }, /^ENCRYPTION_KEYS \(or ENCRYPTION_KEY\) is required/],
      [{ ENCRYPTION_KEYS: `${'ab'.repeat(32)},nope` }, /^ENCRYPTION_KEYS must be 32 bytes as 64 hex digits or base64 \(entry 2 is not\)$/],
      [{ ENCRYPTION_KEYS: `${'ab'.repeat(32)}, ${'ab'.repeat(32)}` }, /^ENCRYPTION_KEYS lists the same key twice$/],
      [{ ENCRYPTION_KEYS: 'ab'.repeat(32), ENCRYPTION_KEY: 'cd'.repeat(32) }, /^set ENCRYPTION_KEYS or ENCRYPTION_KEY, not both/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, INVITATION_BASE_URL: 'https://wallet.example' }, /^SERVICE_TERMS_URL is required when APP_ENV=production and INVITATION_BASE_URL is set/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, SERVICE_TERMS_URL: 'http://wallet.example/terms' }, /^SERVICE_TERMS_URL must be https in production/],
      [{ SERVICE_TERMS_URL: 'terms.html' }, /^SERVICE_TERMS_URL must be an http\(s\) URL/],
      [{ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP }, /^DATABASE_URL is required when APP_ENV=production: .*ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION=1/],
      [{ HIGH_RISK_COUNTRIES: 'VEN,XXX' }, /^HIGH_RISK_COUNTRIES: .*XXX/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), WEBAUTHN_ORIGINS: 'https://wallet.example' }, /^WEBAUTHN_RP_IDS is required when APP_ENV=production/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), WEBAUTHN_RP_IDS: 'wallet.example', WEBAUTHN_ORIGINS: ' , ' }, /^WEBAUTHN_ORIGINS is required when APP_ENV=production/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, WEBAUTHN_ORIGINS: 'http://wallet.example' }, /^WEBAUTHN_ORIGINS: "http:\/\/wallet.example" must be https in production/],
      [{ WEBAUTHN_RP_IDS: '127.0.0.1' }, /^WEBAUTHN_RP_IDS: .*IP address/],
      [{ CHAIN_RPC_URLS: '1=http://a,1=http://b' }, /^CHAIN_RPC_URLS: chain 1 is given twice/],
      [{ SMTP_FROM: 'a@b\r\nBcc: x@y' }, /^SMTP_FROM /],
      [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be 32 to 256/],
      [{ TRUST_PROXY: 'true' }, /^TRUST_PROXY must be a comma list/],
      [{ TRUST_PROXY: ' , ' }, /^TRUST_PROXY /],
      [{ METRICS_TOKEN: `${'a'.repeat(32)} b` }, /^METRICS_TOKEN /],
      [{ REDIS_URL: 'http://127.0.0.1:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$/],
      [{ REDIS_URL: 'redis://user:secret@' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL$/],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, METRICS_PORT: '9100' }, /^METRICS_PORT needs METRICS_TOKEN when APP_ENV=production/],
    ];
    // The rest name the variable and nothing else is asked of their message: `NAME …`, then `NAME: …`.
    for (const [name, value] of rows(`
      PORT                        | abc
      PORT                        | 70000
      APP_ENV                     | staging
      LOG_LEVEL                   | loud
      DATABASE_URL                | mysql://x
      DATABASE_URL                | not a url
      ENCRYPTION_KEY              | short
      HOST                        | a b
      RATE_LIMIT_MAX              | 0
      BODY_LIMIT_BYTES            | -1
      WATCHLIST_FILE              | /nonexistent/list.csv
      SMTP_URL                    | http://mail.example
      SMTP_URL                    | smtp://
      SMTP_FROM                   | nobody
      OTP_RESEND_SECONDS          | -1
      OTP_MAX_PER_HOUR            | 0
      DATABASE_POOL_MAX           | 0
      DATABASE_QUERY_TIMEOUT_MS   | 50
      DATABASE_CONNECT_TIMEOUT_MS | 5s
      DEPOSIT_EXPIRY_HOURS        | 0
      TRUST_PROXY                 | 1
      TRUST_PROXY                 | 10.0.0.0/33
      TRUST_PROXY                 | 127.0.0.1,nginx.local
      METRICS_PORT                | x
      REDIS_KEY_PREFIX            | a b
    `, 2)) cases.push([{ [name]: value }, new RegExp(`^${name} `)]);
    for (const [name, value] of rows(`
      WEBAUTHN_RP_IDS      | https://wallet.example
      WEBAUTHN_RP_IDS      | Wallet.Example
      WEBAUTHN_RP_IDS      | wallet.example:443
      WEBAUTHN_ORIGINS     | wallet.example
      WEBAUTHN_ORIGINS     | https://wallet.example/
      WEBAUTHN_ORIGINS     | https://wallet.example/app
      WEBAUTHN_ORIGINS     | https://wallet.example:443
      WEBAUTHN_ORIGINS     | http://localhost:3000:*
      WEBAUTHN_ORIGINS     | ftp://wallet.example
      CHAIN_RPC_URLS       | mainnet=http://a
      CHAIN_RPC_URLS       | 1=ftp://a
      DEPOSIT_BANK_USD     | {"bank_name":"B"}
      DEPOSIT_BANK_EUR     | not json
      DEPOSIT_RATES        | USD=0
      TREASURY_PRIVATE_KEY | 0x1234
    `, 2)) cases.push([{ [name]: value }, new RegExp(`^${name}: `)]);
    for (const [env, pattern] of cases) {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && pattern.test(err.message) && !err.message.includes('\n'),
        JSON.stringify(env),
      );
    }
  });

  it('deposits: fictitious banks and a derived treasury in sandbox, nothing configured in production', () => {
    const sandbox = loadConfig({});
    assert.deepEqual(Object.keys(sandbox.deposits.banks).sort(), ['EUR', 'USD']);
    assert.equal(sandbox.deposits.treasuryKey, undefined);
    const production = loadConfig({ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP });
    assert.deepEqual(production.deposits.banks, {});
    assert.equal(production.otp.smtpUrl, undefined);
  });

  it('withdrawals: both rails in sandbox, none in production until WITHDRAWAL_RAILS; rates default to the deposit rates', () => {
    const sandbox = loadConfig({ DEPOSIT_RATES: 'USD=7' });
    assert.deepEqual([...sandbox.withdrawals.rails].sort(), ['ach', 'sepa']);
    assert.equal(sandbox.withdrawals.weiPerUnit.USD, 7n);
    assert.equal(sandbox.withdrawals.feeBps, 50);
    assert.equal(sandbox.withdrawals.quoteTtlMs, 60_000);
    const production = loadConfig({ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP });
    assert.equal(production.withdrawals.rails.size, 0);
    const configured = loadConfig({ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, WITHDRAWAL_RAILS: 'sepa', WITHDRAWAL_RATES: 'EUR=9', WITHDRAWAL_FEE_BPS: '0', WITHDRAWAL_QUOTE_SECONDS: '30' });
    assert.deepEqual([...configured.withdrawals.rails], ['sepa']);
    assert.deepEqual([configured.withdrawals.weiPerUnit.EUR, configured.withdrawals.feeBps, configured.withdrawals.quoteTtlMs], [9n, 0, 30_000]);
    assert.throws(() => loadConfig({ WITHDRAWAL_RAILS: 'wire' }), /^.*WITHDRAWAL_RAILS.*wire/);
    assert.throws(() => loadConfig({ WITHDRAWAL_FEE_BPS: '9000' }), /WITHDRAWAL_FEE_BPS/);
  });

  it('reads TRUST_PROXY as addresses, CIDR ranges and proxy-addr range names; none by default', () => {
    assert.deepEqual(loadConfig({}).trustProxy, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8,loopback,127.0.0.1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('reads REDIS_URL (redis:// or rediss://) and REDIS_KEY_PREFIX; no Redis by default', () => {
    assert.equal(loadConfig({}).redisUrl, undefined);
    assert.equal(loadConfig({}).redisKeyPrefix, 'integrator-api:');
    const c = loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380/2', REDIS_KEY_PREFIX: 'prod-eu:' });
    assert.deepEqual([c.redisUrl, c.redisKeyPrefix], ['rediss://:pw@cache.internal:6380/2', 'prod-eu:']);
    // A bad URL is reported without its text: it may carry a password.
    assert.throws(() => loadConfig({ REDIS_URL: 'redis//:s3cret@host' }), (err: unknown) => err instanceof ConfigError && !err.message.includes('s3cret'));
  });

  it('reads CHAIN_RPC_URLS as chainId=url pairs; none by default', () => {
    assert.deepEqual([...loadConfig({}).chainRpcUrls], []);
    assert.deepEqual([...loadConfig({ CHAIN_RPC_URLS: '1=http://127.0.0.1:8545, 8453=https://base.example/rpc' }).chainRpcUrls], [
      [1, 'http://127.0.0.1:8545'],
      [8453, 'https://base.example/rpc'],
    ]);
  });

  it('reads the WebAuthn relying parties and origins as comma lists', () => {
    const c = loadConfig({
      ...PRODUCTION,
      ENCRYPTION_KEY: 'ab'.repeat(32),
      WEBAUTHN_RP_IDS: 'wallet.example, example.com,wallet.example',
      WEBAUTHN_ORIGINS: 'https://wallet.example,https://app.example.com:8443, android:apk-key-hash:' + 'A'.repeat(43),
    });
    assert.deepEqual(c.webauthn, { rpIds: ['wallet.example', 'example.com'], origins: ['https://wallet.example', 'https://app.example.com:8443', `android:apk-key-hash:${'A'.repeat(43)}`] });
    assert.deepEqual(loadConfig({ WEBAUTHN_RP_IDS: 'dev.test', WEBAUTHN_ORIGINS: 'http://dev.test:*' }).webauthn, { rpIds: ['dev.test'], origins: ['http://dev.test:*'] }, 'sandbox may use http');
  });

  it('reports every problem at once, each on its own line, in a fixed order', () => {
    assert.throws(
      () => loadConfig({ APP_ENV: 'production', PORT: 'abc', LOG_LEVEL: 'loud', CHAIN_RPC_URLS: 'mainnet=http://a', WEBHOOK_CONCURRENCY: '0' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.deepEqual(
          err.problems.map((p) => p.split(/[ :]/)[0]),
          ['DATABASE_URL', 'ENCRYPTION_KEYS', 'WEBAUTHN_RP_IDS', 'WEBAUTHN_ORIGINS', 'CHAIN_RPC_URLS', 'PORT', 'WEBHOOK_CONCURRENCY', 'LOG_LEVEL'],
          err.message,
        );
        assert.equal(err.message, err.problems.join('\n'));
        return true;
      },
    );
  });

  it('reports every bad variable of a part that reads several (none stops at its first), and checks those that only default from a bad one', () => {
    const parts: [Record<string, string>, string[]][] = [
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32) }, ['WEBAUTHN_RP_IDS', 'WEBAUTHN_ORIGINS']],
      [{ WEBAUTHN_RP_IDS: 'Wallet.Example', WEBAUTHN_ORIGINS: 'ftp://wallet.example' }, ['WEBAUTHN_RP_IDS', 'WEBAUTHN_ORIGINS']],
      [{ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_TIMEOUT_MS: '5', WEBHOOK_LEASE_SECONDS: 'x' }, ['WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_LEASE_SECONDS']],
      [{ SMTP_URL: 'http://mail.example', SMTP_FROM: 'nobody' }, ['SMTP_URL', 'SMTP_FROM']],
      [{ DEPOSIT_BANK_USD: 'not json', DEPOSIT_BANK_EUR: 'not json', DEPOSIT_RATES: 'USD=0', TREASURY_PRIVATE_KEY: '0x1234', DEPOSIT_EXPIRY_HOURS: '0', WITHDRAWAL_FEE_BPS: '-1' }, [
        'DEPOSIT_BANK_USD',
        'DEPOSIT_BANK_EUR',
        'DEPOSIT_RATES',
        'TREASURY_PRIVATE_KEY',
        'DEPOSIT_EXPIRY_HOURS',
        'WITHDRAWAL_FEE_BPS',
      ]],
      [{ WITHDRAWAL_RAILS: 'swift', WITHDRAWAL_RATES: 'USD=0', WITHDRAWAL_FEE_BPS: '9999', WITHDRAWAL_QUOTE_SECONDS: '1' }, ['WITHDRAWAL_RAILS', 'WITHDRAWAL_RATES', 'WITHDRAWAL_FEE_BPS', 'WITHDRAWAL_QUOTE_SECONDS']],
      [{ BODY_LIMIT_BYTES: '-1', DOCUMENT_BODY_LIMIT_BYTES: '1', LARGE_BODY_CONCURRENCY: '0' }, ['BODY_LIMIT_BYTES', 'DOCUMENT_BODY_LIMIT_BYTES', 'LARGE_BODY_CONCURRENCY']],
      [{ CHAIN_RPC_URLS: 'mainnet=http://a', VAULT_CACHE_SECONDS: 'x', VAULT_DEPOSIT_GAS: '1' }, ['CHAIN_RPC_URLS', 'VAULT_CACHE_SECONDS', 'VAULT_DEPOSIT_GAS']],
      [{ PORT: 'abc', INVITATION_BASE_URL: 'ftp://x' }, ['PORT', 'INVITATION_BASE_URL']],
    ];
    for (const [env, names] of parts) {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.deepEqual(err.problems.map((p) => p.split(/[ :]/)[0]), names, err.message);
          return true;
        },
        JSON.stringify(env),
      );
    }
  });

  it('runs production on the embedded database only when told to', () => {
    const embedded = loadConfig({ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: '1' });
    assert.equal(embedded.databaseUrl, undefined);
    assert.throws(() => loadConfig({ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: '0' }), /DATABASE_URL is required when APP_ENV=production/);
    assert.throws(() => loadConfig({ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP, ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: 'maybe' }), /ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION must be 1 or 0/);
    assert.equal(loadConfig({ ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: '0' }).appEnv, 'sandbox', 'sandbox ignores it');
  });

  it('accepts production with a key and a PostgreSQL URL', () => {
    const c = loadConfig({ ...PRODUCTION, ENCRYPTION_KEY: 'ab'.repeat(32), ...PRODUCTION_RP });
    assert.equal(c.appEnv, 'production');
    assert.deepEqual(c.encryptionKeys?.map((k) => k.length), [32]);
    assert.equal(c.databaseUrl, 'postgresql://u@h/db');
    const ring = loadConfig({ ENCRYPTION_KEYS: ` ${'cd'.repeat(32)} , ${Buffer.alloc(32, 0xab).toString('base64')}` }).encryptionKeys;
    assert.deepEqual(ring?.map((k) => k.toString('hex')), ['cd'.repeat(32), 'ab'.repeat(32)], 'newest first, hex or base64, spaces ignored');
  });
});
