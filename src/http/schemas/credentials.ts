import { Type, type Static } from 'typebox';
import { FORMATS, patterned } from './patterns.js';

export const ScopeSchema = Type.Enum(['read_write', 'read_only'], {
  type: 'string',
  description: 'read_write: every operation including key management; read_only: read and query operations only',
});

export const PublicKeySchema = patterned(FORMATS.publicKey, {
  description: 'Compressed SEC1 P-256 public key, hex with 0x (33 bytes)',
  examples: ['0x02b4c6a0f8a14c3d0f0b8c1e6f6d7c2c8e3a1b5d9f0e4c7a2b6d8e0f1a3c5e7b9d'],
});

export const LabelSchema = Type.String({ minLength: 1, maxLength: 100, description: 'Human-readable name of the credential' });

export const CredentialSchema = Type.Object(
  {
    credentialId: Type.String({ format: 'uuid' }),
    publicKey: PublicKeySchema,
    label: Type.String(),
    scope: ScopeSchema,
    active: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Credential', additionalProperties: false, title: 'Credential' },
);
export type CredentialResponse = Static<typeof CredentialSchema>;

export const CredentialRef = Type.Unsafe<CredentialResponse>(Type.Ref('Credential'));

export const PubkeyParams = Type.Object(
  { pubkey: Type.String({ description: 'The credential public key (compressed P-256, hex with 0x)' }) },
  { additionalProperties: false },
);
