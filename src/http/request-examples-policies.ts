/** Request examples of spending policies and address books (docs/policies.md). */
import { EXAMPLE_IDS } from './request-examples-ids.js';

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
  addAddressBookEntry: { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', label: 'Payroll account at the bank' },
};
