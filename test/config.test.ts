import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has working defaults for the embedded sandbox', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.appEnv, 'sandbox');
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.encryptionKey, undefined);
    assert.equal(c.logLevel, 'info');
    assert.match(c.dataDir, /\/data$/);
    assert.match(c.watchListFile ?? '', /config\/watchlist\.sample\.csv$/, 'sandbox screens against the shipped sample');
    assert.equal(loadConfig({ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32) }).watchListFile, undefined);
  });

  it('names the variable in one line for every bad value', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^PORT /],
      [{ PORT: '70000' }, /^PORT /],
      [{ APP_ENV: 'staging' }, /^APP_ENV /],
      [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL /],
      [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL /],
      [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL /],
      [{ ENCRYPTION_KEY: 'short' }, /^ENCRYPTION_KEY /],
      [{ APP_ENV: 'production' }, /^ENCRYPTION_KEY is required/],
      [{ HOST: 'a b' }, /^HOST /],
      [{ RATE_LIMIT_MAX: '0' }, /^RATE_LIMIT_MAX /],
      [{ BODY_LIMIT_BYTES: '-1' }, /^BODY_LIMIT_BYTES /],
      [{ WATCHLIST_FILE: '/nonexistent/list.csv' }, /^WATCHLIST_FILE /],
      [{ HIGH_RISK_COUNTRIES: 'VEN,XXX' }, /^HIGH_RISK_COUNTRIES: .*XXX/],
    ];
    for (const [env, pattern] of cases) {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && pattern.test(err.message) && !err.message.includes('\n'),
        JSON.stringify(env),
      );
    }
  });

  it('accepts production with a key and a PostgreSQL URL', () => {
    const c = loadConfig({ APP_ENV: 'production', ENCRYPTION_KEY: 'ab'.repeat(32), DATABASE_URL: 'postgresql://u@h/db' });
    assert.equal(c.appEnv, 'production');
    assert.equal(c.encryptionKey?.length, 32);
    assert.equal(c.databaseUrl, 'postgresql://u@h/db');
  });
});
