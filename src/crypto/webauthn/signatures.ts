import { constants, verify, type KeyObject } from 'node:crypto';

const EC: Record<number, { hash: string; curve: string }> = {
  [-7]: { hash: 'sha256', curve: 'prime256v1' },
  [-35]: { hash: 'sha384', curve: 'secp384r1' },
  [-36]: { hash: 'sha512', curve: 'secp521r1' },
};
const RSA: Record<number, { hash: string; padding: number }> = {
  [-257]: { hash: 'sha256', padding: constants.RSA_PKCS1_PADDING },
  [-258]: { hash: 'sha384', padding: constants.RSA_PKCS1_PADDING },
  [-259]: { hash: 'sha512', padding: constants.RSA_PKCS1_PADDING },
  [-37]: { hash: 'sha256', padding: constants.RSA_PKCS1_PSS_PADDING },
};

/** Whether verifySignature knows this COSE algorithm (for attestation certificates, which may be RSA). */
export function isVerifiableAlgorithm(alg: number): boolean {
  return alg in EC || alg in RSA || alg === -8;
}

/**
 * Verifies a WebAuthn signature (ECDSA ones are DER, as authenticators write them) made with COSE
 * algorithm `alg`; false when the key's type does not fit the algorithm or the signature does not verify.
 */
export function verifySignature(alg: number, key: KeyObject, data: Buffer, signature: Uint8Array): boolean {
  try {
    const ec = EC[alg];
    if (ec) {
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== ec.curve) return false;
      return verify(ec.hash, data, key, signature); // DER, the default (p256.ts says why not the options form)
    }
    const rsa = RSA[alg];
    if (rsa) {
      if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'rsa-pss') return false;
      return verify(rsa.hash, data, { key, padding: rsa.padding }, signature);
    }
    if (alg === -8) return key.asymmetricKeyType === 'ed25519' && verify(null, data, key, signature);
    return false;
  } catch {
    // OpenSSL throws for some malformed signatures instead of returning false.
    return false;
  }
}
