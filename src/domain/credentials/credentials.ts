import type { Executor } from '../../db/database.js';
import * as repo from '../../db/repositories/credentials.js';
import { generateP256KeyPair, importCompressedPublicKey, normalizePublicKeyHex } from '../../crypto/p256.js';
import { runMutation, type MutationContext } from '../context.js';
import { ApiError, invalidFields, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { newId } from '../ids.js';

export type Scope = 'read_write' | 'read_only';

/** A credential as the API returns it. */
export interface CredentialView {
  credentialId: string;
  publicKey: string;
  label: string;
  scope: Scope;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toCredentialView(row: repo.CredentialRow): CredentialView {
  return {
    credentialId: row.id,
    publicKey: row.publicKey,
    label: row.label,
    scope: row.scope,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Throws a field error unless the text is a compressed P-256 point on the curve. */
export function parsePublicKeyField(publicKey: string, pointer: string, where: 'body' | 'path'): string {
  try {
    importCompressedPublicKey(publicKey);
    return normalizePublicKeyHex(publicKey);
  } catch {
    throw invalidFields(
      [{ pointer, code: 'invalid_public_key', detail: 'must be a compressed SEC1 P-256 point on the curve, hex with 0x (33 bytes)', in: where }],
      'publicKey is not a compressed P-256 public key',
    );
  }
}

export async function listCredentials(db: Executor, integratorId: string): Promise<CredentialView[]> {
  return (await repo.listCredentials(db, integratorId)).map(toCredentialView);
}

export interface IssueCredentialInput {
  label: string;
  scope: Scope;
  /** Bring-your-own key; without it a key pair is generated and the private half returned once. */
  publicKey?: string;
}

export interface IssuedCredential {
  credential: CredentialView;
  /** Present only when the server generated the pair. Never stored. */
  privateKey?: string;
}

/** Inserts a credential and its credential.created event in the caller's transaction. */
export async function insertCredentialWithEvent(
  tx: Executor,
  integratorId: string,
  input: IssueCredentialInput,
  now: Date,
): Promise<IssuedCredential> {
  const generated = input.publicKey === undefined ? generateP256KeyPair() : undefined;
  const publicKey = generated?.publicKey ?? parsePublicKeyField(input.publicKey!, '/publicKey', 'body');
  const row = await repo.insertCredential(tx, {
    id: newId(),
    integratorId,
    publicKey,
    label: input.label,
    scope: input.scope,
    active: true,
    createdAt: now,
    updatedAt: now,
  });
  if (!row) throw new ApiError('credential_exists', 'A credential with this public key already exists');
  const credential = toCredentialView(row);
  await recordEvent(tx, { integratorId, type: 'credential.created', objectType: 'credential', objectId: row.id, object: credential, at: now });
  return generated ? { credential, privateKey: generated.privateKey } : { credential };
}

export function issueCredential(ctx: MutationContext, input: IssueCredentialInput): Promise<IssuedCredential> {
  return runMutation(ctx, (tx) => insertCredentialWithEvent(tx, ctx.actor.integratorId, input, ctx.now));
}

export interface UpdateCredentialInput {
  label?: string;
  scope?: Scope;
  active?: boolean;
}

export function updateCredential(ctx: MutationContext, publicKeyParam: string, patch: UpdateCredentialInput): Promise<CredentialView> {
  const publicKey = parsePublicKeyField(publicKeyParam, '/pubkey', 'path');
  return runMutation(ctx, async (tx) => {
    const current = await repo.lockCredential(tx, ctx.actor.integratorId, publicKey);
    if (!current) throw notFound('Credential');
    if (current.id === ctx.actor.credentialId) {
      if (patch.active === false) throw new ApiError('cannot_modify_own_credential', 'A credential cannot deactivate itself; sign with another read_write credential');
      if (patch.scope !== undefined && patch.scope !== current.scope) {
        throw new ApiError('cannot_modify_own_credential', 'A credential cannot change its own scope; sign with another read_write credential');
      }
    }
    const previousAttributes: Record<string, unknown> = {};
    const changes: UpdateCredentialInput = {};
    for (const field of ['label', 'scope', 'active'] as const) {
      if (patch[field] !== undefined && patch[field] !== current[field]) {
        previousAttributes[field] = current[field];
        (changes as Record<string, unknown>)[field] = patch[field];
      }
    }
    // A no-op update changes nothing and emits nothing.
    if (Object.keys(changes).length === 0) return toCredentialView(current);
    const updated = toCredentialView(await repo.updateCredential(tx, current.id, { ...changes, updatedAt: ctx.now }));
    previousAttributes.updatedAt = current.updatedAt.toISOString();
    await recordEvent(tx, {
      integratorId: ctx.actor.integratorId,
      type: 'credential.updated',
      objectType: 'credential',
      objectId: current.id,
      object: updated,
      previousAttributes,
      at: ctx.now,
    });
    return updated;
  });
}

export function deleteCredential(ctx: MutationContext, publicKeyParam: string): Promise<void> {
  const publicKey = parsePublicKeyField(publicKeyParam, '/pubkey', 'path');
  return runMutation(ctx, async (tx) => {
    const current = await repo.lockCredential(tx, ctx.actor.integratorId, publicKey);
    if (!current) throw notFound('Credential');
    if (current.id === ctx.actor.credentialId) {
      throw new ApiError('cannot_modify_own_credential', 'A credential cannot delete itself; sign with another read_write credential');
    }
    await repo.deleteCredential(tx, current.id);
    await recordEvent(tx, {
      integratorId: ctx.actor.integratorId,
      type: 'credential.deleted',
      objectType: 'credential',
      objectId: current.id,
      object: toCredentialView(current),
      at: ctx.now,
    });
  });
}

/** Operator action (CLI): deactivate any credential by key. */
export async function deactivateCredentialAsOperator(ctx: Pick<MutationContext, 'db' | 'now'>, publicKeyText: string): Promise<CredentialView> {
  const publicKey = parsePublicKeyField(publicKeyText, '/publicKey', 'body');
  return ctx.db.db.transaction(async (tx) => {
    const existing = await repo.findCredentialByPublicKey(tx, publicKey);
    if (!existing) throw notFound('Credential');
    const current = await repo.lockCredential(tx, existing.integratorId, publicKey);
    if (!current) throw notFound('Credential');
    if (!current.active) return toCredentialView(current);
    const updated = toCredentialView(await repo.updateCredential(tx, current.id, { active: false, updatedAt: ctx.now }));
    await recordEvent(tx, {
      integratorId: current.integratorId,
      type: 'credential.updated',
      objectType: 'credential',
      objectId: current.id,
      object: updated,
      previousAttributes: { active: true, updatedAt: current.updatedAt.toISOString() },
      at: ctx.now,
    });
    return updated;
  });
}
