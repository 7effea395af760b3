import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../src/db/database.js';
import { findLedgerAccount } from '../../src/db/repositories/ledger-reads.js';
import { fiatAsset } from '../../src/domain/ledger/assets.js';
import { customerAccount, ledgerAccountCode, ledgerAccountId, serviceAccount, type LedgerAccountRef } from '../../src/domain/ledger/ledger-accounts.js';
import { postLedger } from '../../src/domain/ledger/post.js';
import type { DesiredPosting } from '../../src/domain/ledger/posting.js';
import { newId } from '../../src/domain/ids.js';
import { backends } from '../harness/backends.js';
import { openTestDatabase, type TestDatabase } from '../harness/db.js';

/*
 * The posting statement (src/db/repositories/ledger-posting.ts, docs/ledger.md#locking): a database transaction posts
 * once, every balance in one upsert in id order; several legs on one account in one call make one version with each
 * entry's balances after it in order; pending ones move on by cause; and concurrent multi-posting transactions over
 * the same accounts never deadlock (PostgreSQL, where they run at once).
 */
const usd = fiatAsset('USD');
const integratorId = newId();
const customer = (accountId: string) => customerAccount(integratorId, accountId, usd);
const treasury = serviceAccount('treasury', usd);
const external = serviceAccount('external', usd);
const idOf = (ref: LedgerAccountRef) => ledgerAccountId(ledgerAccountCode(ref));

const posting = (causeKey: string, status: DesiredPosting['status'], from: LedgerAccountRef, to: LedgerAccountRef, amount: bigint, blockNumber: number | null = null): DesiredPosting => ({
  causeKey,
  causeType: 'adjustment',
  causeId: null,
  integratorId: null,
  description: causeKey,
  status,
  chainId: 8453,
  blockNumber,
  legs: [
    { account: from, amount: -amount },
    { account: to, amount },
  ],
});

for (const backend of backends()) {
  describe(`ledger postings [${backend}]`, () => {
    let t: TestDatabase;
    const at = new Date('2026-12-02T10:00:00Z');
    before(async () => {
      t = await openTestDatabase(backend);
    });
    after(() => t.close());

    // Through the operators' read: a service account's balances are its slots' sum.
    const balances = async (ref: LedgerAccountRef) => {
      const row = await findLedgerAccount(t.database.db, idOf(ref));
      return row && { posted: row.posted, pending: row.pending, available: row.available, version: row.version };
    };

    it('refuses a second posting in one database transaction, and the transaction writes nothing', async () => {
      const a = customer(newId());
      await assert.rejects(
        t.database.db.transaction(async (tx) => {
          await postLedger(tx, [posting(`once:${newId()}`, 'posted', treasury, a, 5n)], at);
          await postLedger(tx, [posting(`once:${newId()}`, 'posted', treasury, a, 7n)], at);
        }),
        /posts once/,
      );
      assert.equal(await balances(a), undefined);
    });

    it('moves an account once for several legs, each entry with the balances right after it', async () => {
      const a = customer(newId());
      const keys = [`multi:${newId()}`, `multi:${newId()}`, `multi:${newId()}`];
      await t.database.db.transaction((tx) =>
        postLedger(tx, [posting(keys[0]!, 'posted', treasury, a, 100n), posting(keys[1]!, 'pending', a, external, 30n), posting(keys[2]!, 'posted', treasury, a, 5n)], at),
      );
      assert.deepEqual(await balances(a), { posted: '105', pending: '75', available: '75', version: 1 });
      const entries = await selectRows<{ key: string; posted: string; pending: string; available: string; version: string | number }>(
        t.database.db,
        sql`select t.cause_key as key, e.posted_after::text as posted, e.pending_after::text as pending, e.available_after::text as available, e.account_version as version
            from ledger_entries e join ledger_transactions t on t.id = e.ledger_transaction_id where e.ledger_account_id = ${idOf(a)}`,
      );
      const byKey = new Map(entries.map((e) => [e.key, { posted: e.posted, pending: e.pending, available: e.available, version: Number(e.version) }]));
      assert.deepEqual(byKey.get(keys[0]!), { posted: '100', pending: '100', available: '100', version: 1 });
      assert.deepEqual(byKey.get(keys[1]!), { posted: '100', pending: '70', available: '70', version: 1 });
      assert.deepEqual(byKey.get(keys[2]!), { posted: '105', pending: '75', available: '75', version: 1 });
    });

    it('moves a pending one on by its cause (its block, then posted by finality), archives another, and posts nothing twice', async () => {
      const a = customer(newId());
      const [sent, failed] = [`chain:${newId()}`, `chain:${newId()}`];
      await t.database.db.transaction((tx) => postLedger(tx, [posting(`fund:${newId()}`, 'posted', treasury, a, 50n)], at));
      await t.database.db.transaction((tx) => postLedger(tx, [posting(sent, 'pending', a, external, 20n), posting(failed, 'pending', a, external, 10n)], at));
      assert.deepEqual(await balances(a), { posted: '50', pending: '20', available: '20', version: 2 });
      // Mined (block 7) and failed, in one round; the same again changes nothing.
      for (let i = 0; i < 2; i++) {
        await t.database.db.transaction((tx) => postLedger(tx, [posting(sent, 'pending', a, external, 20n, 7), posting(failed, 'archived', a, external, 10n)], at));
      }
      assert.deepEqual(await balances(a), { posted: '50', pending: '30', available: '30', version: 3 });
      // Final at block 7 on chain 8453: posted with the round, not before.
      const moved = await t.database.db.transaction((tx) => postLedger(tx, [], at, { final: { chainId: 8453, finalBlock: 6 } }));
      assert.equal(moved.moved, 0);
      await t.database.db.transaction((tx) => postLedger(tx, [], at, { final: { chainId: 8453, finalBlock: 7 } }));
      assert.deepEqual(await balances(a), { posted: '30', pending: '30', available: '30', version: 4 });
      const statuses = await selectRows<{ key: string; status: string; entries: string }>(
        t.database.db,
        sql`select t.cause_key as key, t.status, string_agg(e.status, ',' order by e.status) as entries from ledger_transactions t join ledger_entries e on e.ledger_transaction_id = t.id
            where t.cause_key in (${sent}, ${failed}) group by t.cause_key, t.status order by t.cause_key`,
      );
      assert.deepEqual(Object.fromEntries(statuses.map((s) => [s.key, `${s.status}/${s.entries}`])), { [sent]: 'posted/posted,posted', [failed]: 'archived/archived,archived' });
    });

    it('runs concurrent multi-posting transactions over the same accounts without a deadlock, the books exact', { skip: backend !== 'postgres' && 'PGlite runs one transaction at a time' }, async () => {
      // Its own asset, so the service accounts start at zero here.
      const eur = fiatAsset('EUR');
      const customers = Array.from({ length: 6 }, () => customerAccount(integratorId, newId(), eur));
      const holders = [...customers, serviceAccount('treasury', eur), serviceAccount('external', eur)];
      const rounds = 40;
      const writers = 12;
      let total = 0n;
      const expected = new Map<string, bigint>();
      const add = (ref: LedgerAccountRef, n: bigint) => expected.set(idOf(ref), (expected.get(idOf(ref)) ?? 0n) + n);
      const writer = async (w: number) => {
        for (let r = 0; r < rounds; r++) {
          // Four postings over random accounts, in a random order: one statement must still lock them in id order.
          const postings = Array.from({ length: 4 }, (_, i) => {
            const from = holders[(w * 7 + r * 3 + i * 5) % holders.length]!;
            const to = holders[(w * 11 + r * 5 + i * 3 + 1) % holders.length]!;
            return posting(`load:${w}:${r}:${i}:${newId()}`, 'posted', from, to, BigInt(1 + ((w + r + i) % 9)));
          }).filter((p) => p.legs[0]!.account !== p.legs[1]!.account);
          await t.database.db.transaction((tx) => postLedger(tx, postings, at));
          for (const p of postings) {
            for (const leg of p.legs) add(leg.account, leg.amount);
            total += p.legs[1]!.amount;
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
      assert.ok(total > 0n);
      for (const ref of holders) assert.equal((await balances(ref))?.posted ?? '0', String(expected.get(idOf(ref)) ?? 0n), ledgerAccountCode(ref));
      const [sums] = await selectRows<{ entries: string; rows: string }>(
        t.database.db,
        sql`select (select sum(amount)::text from ledger_entries e join ledger_accounts a on a.id = e.ledger_account_id where a.asset = ${eur.code}) as entries,
                   (select sum(posted_balance)::text from ledger_accounts where asset = ${eur.code}) as rows`,
      );
      assert.deepEqual(sums, { entries: '0', rows: '0' });
      // The treasury's balances went to several of its slots; its entries carry no balances after them, a customer's do.
      const [spread] = await selectRows<{ slots: number; bare: number; customer: number }>(
        t.database.db,
        sql`select (select count(*)::int from ledger_accounts where slot_of = ${idOf(holders.at(-2)!)}) as slots,
                   (select count(*)::int from ledger_entries where ledger_account_id = ${idOf(holders.at(-2)!)} and posted_after is not null) as bare,
                   (select count(*)::int from ledger_entries where ledger_account_id = ${idOf(customers[0]!)} and posted_after is null) as customer`,
      );
      assert.ok(Number(spread!.slots) > 1, `treasury slots: ${spread!.slots}`);
      assert.deepEqual([Number(spread!.bare), Number(spread!.customer)], [0, 0]);
    });
  });
}
