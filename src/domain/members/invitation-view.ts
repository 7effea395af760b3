import type { InvitationRow } from '../../db/repositories/invitations.js';
import type { Executor } from '../../db/database.js';
import { recordEvent } from '../events/record-event.js';
import type { Role } from './roles.js';

/** An invitation as the API and its events show it (docs/invitations.md). Never the token: only its hash is kept. */
export interface InvitationView {
  invitationId: string;
  accountId: string;
  email: string;
  role: Role;
  status: InvitationRow['status'];
  expiresAt: string;
  invitedByUserId: string | null;
  acceptedUserId: string | null;
  sentCount: number;
  lastSentAt: string;
  createdAt: string;
  updatedAt: string;
}

export function toInvitationView(row: InvitationRow): InvitationView {
  return {
    invitationId: row.id,
    accountId: row.accountId,
    email: row.email,
    role: row.role,
    status: row.status,
    expiresAt: row.expiresAt.toISOString(),
    invitedByUserId: row.invitedByUserId,
    acceptedUserId: row.acceptedUserId,
    sentCount: row.sentCount,
    lastSentAt: row.lastSentAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type InvitationEventType = 'invitation.created' | 'invitation.accepted' | 'invitation.revoked' | 'invitation.expired';

/** Invitation events are objects of their own (objectId: the invitation's id), written in the change's transaction. */
export async function recordInvitationEvent(tx: Executor, type: InvitationEventType, row: InvitationRow, at: Date): Promise<InvitationView> {
  const view = toInvitationView(row);
  await recordEvent(tx, { integratorId: row.integratorId, type, objectType: 'invitation', objectId: row.id, object: view, at });
  return view;
}
