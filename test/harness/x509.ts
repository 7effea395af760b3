import { sign, type KeyObject } from 'node:crypto';

// Just enough DER to write a self-signed X.509 v3 certificate for packed attestation tests (node:crypto
// reads certificates but cannot make them).

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
const set = (...parts: Buffer[]) => tlv(0x31, ...parts);
const oid = (hex: string) => tlv(0x06, Buffer.from(hex, 'hex'));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const utcTime = (text: string) => tlv(0x17, Buffer.from(text, 'ascii'));

const ECDSA_WITH_SHA256 = '2a8648ce3d040302';
const SHA256_WITH_RSA = '2a864886f70d01010b';
const COMMON_NAME = '550403';
const ORGANIZATIONAL_UNIT = '55040b';

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid(ORGANIZATIONAL_UNIT), utf8('Authenticator Attestation'))), set(sequence(oid(COMMON_NAME), utf8(commonName))));
}

/** A self-signed certificate for `publicKey`, signed with `privateKey` (EC P-256 or RSA, SHA-256). */
export function selfSignedCertificate(publicKey: KeyObject, privateKey: KeyObject, commonName = 'Test Authenticator'): Buffer {
  const rsa = privateKey.asymmetricKeyType === 'rsa';
  const algorithm = rsa ? sequence(oid(SHA256_WITH_RSA), Buffer.from([0x05, 0x00])) : sequence(oid(ECDSA_WITH_SHA256));
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, Buffer.from([0x01, 0x23, 0x45])),
    algorithm,
    name(commonName),
    sequence(utcTime('250101000000Z'), utcTime('450101000000Z')),
    name(commonName),
    publicKey.export({ format: 'der', type: 'spki' }),
  );
  const signature = sign('sha256', tbs, rsa ? privateKey : { key: privateKey, dsaEncoding: 'der' });
  return sequence(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
}
