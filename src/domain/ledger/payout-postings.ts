import type { WithdrawalPayoutRow } from '../../db/repositories/withdrawals.js';
import type { TransactionRow } from '../../db/repositories/transactions.js';
import type { StoredWithdrawal } from '../transactions/transaction-view.js';
import { fiatAsset, toMinorUnits } from './assets.js';
import { serviceAccount } from './ledger-accounts.js';
import type { DesiredPosting, Leg } from './posting.js';

/**
 * A withdrawal's fiat payout in the books (docs/ledger.md#postings): the bank's debit, pending from `sent` and posted
 * once settled (or once returned: the debit happened, the return credits it back); a return reverses the payout
 * owed and the fee, and the crypto goes back through the refund (transaction-postings.ts).
 */
export function payoutPostings(payout: WithdrawalPayoutRow, withdrawal: TransactionRow): DesiredPosting[] {
  const w = withdrawal.withdrawal as StoredWithdrawal;
  const fiat = fiatAsset(payout.currency);
  const amount = toMinorUnits(payout.amount, 2);
  const fee = toMinorUnits(w.fee, 2);
  const clearing = serviceAccount('fiat_clearing', fiat);
  const inTransit = serviceAccount('payouts_in_transit', fiat);
  const base = { causeType: 'payout' as const, causeId: payout.id, integratorId: payout.integratorId, chainId: null, blockNumber: null };
  const postings: DesiredPosting[] = [];
  const sent = payout.sentAt !== null;
  if (sent || payout.status === 'settled') {
    const status = payout.status === 'sent' ? 'pending' : 'posted';
    postings.push({ ...base, causeKey: `payout:${payout.id}:bank`, description: `payout ${payout.reference} paid by the bank`, status, legs: [{ account: inTransit, amount }, { account: clearing, amount: -amount }] });
  }
  if (payout.status === 'returned') {
    const legs: Leg[] = [
      { account: sent ? clearing : inTransit, amount },
      { account: serviceAccount('exchange', fiat), amount: -(amount + fee) },
      { account: serviceAccount('fees_earned', fiat), amount: fee },
    ];
    postings.push({ ...base, causeKey: `payout:${payout.id}:return`, description: `payout ${payout.reference} returned`, status: 'posted', legs });
  }
  return postings;
}
