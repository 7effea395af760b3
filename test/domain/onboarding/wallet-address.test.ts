import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { getAddress } from 'viem/utils';
import { normalizeWalletAddress, validateWalletAddress } from '../../../src/domain/onboarding/validation/wallet-address.js';
import { assertOnly, assertValid } from './fixtures.js';

const P = '/walletAddress';
// The EIP-55 specification's own test vector.
const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const flipCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const lowerHex = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);

describe('validateWalletAddress', () => {
  it('accepts checksummed, all-lower and all-upper addresses', () => {
    assertValid(validateWalletAddress(CHECKSUMMED, P));
    assertValid(validateWalletAddress(CHECKSUMMED.toLowerCase(), P));
    assertValid(validateWalletAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`, P));
    assertValid(validateWalletAddress('0x0000000000000000000000000000000000000000', P));
  });

  it('rejects a broken checksum and anything that is not 0x + 40 hex digits', () => {
    assertOnly(validateWalletAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', P), P, 'invalid_checksum');
    for (const bad of ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', `0X${CHECKSUMMED.slice(2)}`, CHECKSUMMED.slice(0, -1), `${CHECKSUMMED}0`, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', ` ${CHECKSUMMED}`, 'vitalik.eth', '']) {
      assertOnly(validateWalletAddress(bad, P), P, 'invalid_address');
    }
    assertOnly(validateWalletAddress(42, P), P, 'invalid_type');
    assertOnly(validateWalletAddress(null, P), P, 'required');
  });

  it('normalizeWalletAddress gives the checksummed form and refuses to repair a bad checksum', () => {
    assert.equal(normalizeWalletAddress(CHECKSUMMED.toLowerCase()), CHECKSUMMED);
    assert.equal(normalizeWalletAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`), CHECKSUMMED);
    assert.throws(() => normalizeWalletAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'));
    assert.throws(() => normalizeWalletAddress('0x12'));
  });

  it('property: lower-case -> checksummed is valid and normalises to itself', () => {
    fc.assert(
      fc.property(lowerHex, (lower) => {
        const checksummed = getAddress(lower);
        assertValid(validateWalletAddress(lower, P));
        assertValid(validateWalletAddress(checksummed, P));
        assert.equal(normalizeWalletAddress(lower), checksummed);
        assert.equal(normalizeWalletAddress(checksummed), checksummed);
      }),
      { numRuns: 200 },
    );
  });

  it('property: flipping the case of one letter of a checksummed address breaks it (unless no case mix is left)', () => {
    fc.assert(
      fc.property(lowerHex, fc.nat(), (lower, at) => {
        const checksummed = getAddress(lower);
        const i = 2 + (at % 40);
        const flipped = checksummed.slice(0, i) + flipCase(checksummed[i]!) + checksummed.slice(i + 1);
        const hex = flipped.slice(2);
        if (flipped === checksummed) assertValid(validateWalletAddress(flipped, P)); // a digit: nothing changed
        else if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) assertValid(validateWalletAddress(flipped, P));
        else assertOnly(validateWalletAddress(flipped, P), P, 'invalid_checksum');
      }),
      { numRuns: 500 },
    );
  });
});
