/** Request examples of spending policies and address books (docs/policies.md). */
import { EXAMPLE_IDS, EXAMPLE_VALUES } from './request-examples-ids.js';

/** Deleting an entity account's policy: an owner approves, the path's policyId in the parameters they sign. */
const ownerDeletion = {
  actingUserId: EXAMPLE_IDS.actingUserId,
  signedBody: {
    type: 'ACTIVITY_TYPE_MEMBER_ACTION',
    timestampMs: EXAMPLE_VALUES.timestampMs,
    organizationId: EXAMPLE_IDS.organizationId,
    parameters: { operation: 'delete-policy', policyId: EXAMPLE_IDS.policyId, actingUserId: EXAMPLE_IDS.actingUserId },
  },
  webAuthnStamp: EXAMPLE_VALUES.webAuthnStamp,
};

export const POLICY_EXAMPLES: Record<string, Record<string, unknown>> = {
  createPolicy: {
    accountId: EXAMPLE_IDS.accountId,
    rules: [
      { type: 'max_amount', asset: 'USDC', chainId: 8453, amount: '10000', window: '24h' },
      { type: 'max_amount', asset: 'ETH', chainId: 8453, amount: '0.5', window: 'transaction' },
      { type: 'new_destination_delay', hours: 24 },
      { type: 'require_approvals', above: { asset: 'USDC', chainId: 8453, amount: '5000' }, approvals: 1 },
    ],
  },
  deletePolicy: ownerDeletion,
  addAddressBookEntry: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', label: 'Payroll account at the bank' },
};

export const POLICY_EXAMPLE_NOTES: Record<string, string> = {
  deletePolicy:
    'The example deletes a policy of an entity account: its owner actingUserId approves with a passkey over signedBody (made per request: timestampMs now, ' +
    'parameters the path’s policyId, actingUserId and operation delete-policy), stamped by `stampWithPasskey(signedBody)` of the SDK (docs/sdk.md#passkey-stamps); ' +
    'an approvalToken of otp/verify may replace the stamp. A policy of an individual account, or one of every account, is deleted without a body.',
};
