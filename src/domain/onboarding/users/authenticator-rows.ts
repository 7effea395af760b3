import type { NewAuthenticatorRow } from '../../../db/repositories/users.js';
import { newId } from '../../ids.js';
import type { PreparedAuthenticator } from '../validation/authenticators.js';

/** A verified registration as the user's stored authenticator (create-user, the hosted onboarding flow's passkey). */
export function authenticatorRow(a: PreparedAuthenticator, userId: string, now: Date): NewAuthenticatorRow {
  return {
    id: newId(),
    userId,
    authenticatorName: a.authenticatorName,
    credentialId: a.credentialId,
    challenge: a.challenge,
    clientDataJson: a.clientDataJson,
    attestationObject: a.attestationObject,
    transports: a.transports,
    publicKey: a.credential.publicKeySpki.toString('base64'),
    publicKeyAlgorithm: a.credential.algorithm,
    rpIdHash: a.credential.rpIdHash.toString('hex'),
    signCount: a.credential.signCount,
    aaguid: a.credential.aaguid,
    attestationFormat: a.credential.format,
    createdAt: now,
  };
}
