import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { originAllowed, originPatternProblem, rpIdProblem } from '../../src/crypto/webauthn/relying-party.js';

describe('webauthn relying party: origins and rp ids', () => {
  it('matches origins exactly, and :* entries on any port of the same scheme and host', () => {
    const allowed = ['https://wallet.example', 'http://localhost:*', `android:apk-key-hash:${'A'.repeat(43)}`];
    for (const origin of ['https://wallet.example', 'http://localhost', 'http://localhost:1', 'http://localhost:5173', 'http://localhost:65535', `android:apk-key-hash:${'A'.repeat(43)}`]) {
      assert.ok(originAllowed(origin, allowed), origin);
    }
    for (const origin of [
      'https://wallet.example:8443',
      'https://wallet.example/',
      'http://wallet.example',
      'https://sub.wallet.example',
      'https://localhost:5173',
      'http://localhost:0',
      'http://localhost:05173',
      'http://localhost:65536',
      'http://localhost:5173/',
      'http://localhost.evil.example',
      'http://localhost:5173@evil.example',
      'http://127.0.0.1:5173',
      '',
    ]) {
      assert.ok(!originAllowed(origin, allowed), origin);
    }
    assert.ok(!originAllowed('https://wallet.example', []));
  });

  it('validates configured entries', () => {
    assert.equal(originPatternProblem('https://wallet.example', true), null);
    assert.equal(originPatternProblem('https://wallet.example:8443', true), null);
    assert.equal(originPatternProblem('http://localhost:*', false), null);
    assert.match(originPatternProblem('http://localhost:*', true) ?? '', /https in production/);
    for (const bad of ['https://Wallet.example', 'https://wallet.example/', 'https://wallet.example:443', 'https://wallet.example:8443:*', 'wallet.example', 'android:apk-key-hash:short']) {
      assert.notEqual(originPatternProblem(bad, false), null, bad);
    }
    assert.equal(rpIdProblem('wallet.example'), null);
    assert.equal(rpIdProblem('localhost'), null);
    for (const bad of ['Wallet.example', 'wallet.example.', 'https://wallet.example', 'wallet.example:443', '127.0.0.1', '', '-x.example']) {
      assert.notEqual(rpIdProblem(bad), null, bad);
    }
  });
});
