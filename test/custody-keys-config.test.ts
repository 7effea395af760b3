import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { TokenConfigError } from '../src/crypto/pkcs11/errors.js';
import { startServer } from './harness/server.js';
import { createTestToken, SOFTHSM_MODULE, softHsmMissing } from './harness/softhsm.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return [...err.problems];
  }
};

describe('CUSTODY_KEYS and the PKCS11_* settings', () => {
  it('defaults to sealed; pkcs11 reads the module, the label and the PIN, which no dump of the configuration shows', () => {
    assert.deepEqual(loadConfig({}).custodyKeys, { backend: 'sealed' });
    const dir = mkdtempSync(join(tmpdir(), 'pkcs11-config-'));
    const module = join(dir, 'module.so');
    writeFileSync(module, '');
    const config = loadConfig({ CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: module, PKCS11_TOKEN_LABEL: 'custody', PKCS11_PIN: 'secret-pin-4821' });
    assert.equal(config.custodyKeys.backend, 'pkcs11');
    assert.ok(config.custodyKeys.backend === 'pkcs11' && config.custodyKeys.pin() === 'secret-pin-4821');
    assert.ok(!inspect(config, { depth: null }).includes('secret-pin-4821'), 'the PIN is behind a function');
    const pinFile = join(dir, 'pin');
    writeFileSync(pinFile, 'from-a-file-9931\n');
    const fromFile = loadConfig({ CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: module, PKCS11_TOKEN_LABEL: 'custody', PKCS11_PIN_FILE: pinFile }).custodyKeys;
    assert.ok(fromFile.backend === 'pkcs11' && fromFile.pin() === 'from-a-file-9931', 'the first line of the file, without its newline');
    assert.ok(fromFile.backend === 'pkcs11' && config.custodyKeys.backend === 'pkcs11');
    assert.deepEqual([config.custodyKeys.pinSource, fromFile.pinSource], [{ variable: 'PKCS11_PIN' }, { variable: 'PKCS11_PIN_FILE', path: pinFile }], 'a refused PIN names where it came from');
  });

  it('reports every mistake at once, naming the variables and never quoting a PIN', () => {
    assert.deepEqual(problemsOf({ CUSTODY_KEYS: 'hsm' }), ['CUSTODY_KEYS must be one of sealed, pkcs11 (got "hsm")']);
    assert.deepEqual(problemsOf({ CUSTODY_KEYS: 'pkcs11' }), [
      'PKCS11_MODULE is required when CUSTODY_KEYS=pkcs11 (the module’s path, e.g. /usr/lib/softhsm/libsofthsm2.so)',
      'PKCS11_TOKEN_LABEL is required when CUSTODY_KEYS=pkcs11',
      'PKCS11_PIN or PKCS11_PIN_FILE is required when CUSTODY_KEYS=pkcs11',
    ]);
    const problems = problemsOf({ CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: 'lib.so', PKCS11_TOKEN_LABEL: 'x'.repeat(33), PKCS11_PIN: 'abc', PKCS11_PIN_FILE: '/nonexistent' });
    assert.deepEqual(problems, [
      'PKCS11_MODULE must be an absolute path (got "lib.so")',
      'PKCS11_TOKEN_LABEL must be 1 to 32 bytes without leading or trailing blanks',
      'set PKCS11_PIN or PKCS11_PIN_FILE, not both',
    ]);
    assert.deepEqual(problemsOf({ CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: '/nonexistent/lib.so', PKCS11_TOKEN_LABEL: 't', PKCS11_PIN_FILE: '/nonexistent/pin' }), [
      'PKCS11_MODULE: /nonexistent/lib.so cannot be read (is the module installed?)',
      'PKCS11_PIN_FILE: /nonexistent/pin cannot be read (ENOENT)',
    ]);
    assert.deepEqual(problemsOf({ PKCS11_PIN: 'pin-7777' }), ['PKCS11_PIN is set but CUSTODY_KEYS is not pkcs11']);
    assert.ok(!problemsOf({ CUSTODY_KEYS: 'pkcs11', PKCS11_MODULE: '/x', PKCS11_TOKEN_LABEL: 't', PKCS11_PIN: '12' }).some((p) => p.includes('12 ')));
  });

  it('a token that cannot be opened stops the start, naming what failed and not the PIN', { skip: softHsmMissing('the start-up token check') ? `${SOFTHSM_MODULE} is missing` : false }, async () => {
    const token = await createTestToken();
    await assert.rejects(startServer('pglite', { ...token.env, PKCS11_TOKEN_LABEL: 'no-such-token' }), (err: unknown) => {
      assert.ok(err instanceof TokenConfigError);
      assert.match(err.message, /^PKCS11_TOKEN_LABEL: no token labelled "no-such-token"/);
      return true;
    });
    await assert.rejects(startServer('pglite', { ...token.env, PKCS11_PIN: 'wrong-pin-5150' }), (err: unknown) => {
      assert.ok(err instanceof TokenConfigError);
      assert.match(err.message, /^PKCS11_PIN: the token "test-[0-9a-f]+" refused the PIN \(CKR_PIN_INCORRECT\)$/);
      assert.ok(!err.message.includes('wrong-pin-5150') && !err.message.includes(token.pin));
      return true;
    });
  });
});
