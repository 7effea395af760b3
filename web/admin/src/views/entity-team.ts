import { fill, h } from '../dom';
import { age, chainName, cryptoAmount, dateTime, fromBaseUnits, humanize, nativeSymbol } from '../format';
import { poll } from '../poller';
import type { Case } from '../types';

// An entity case's team (docs/review.md, "Entity team"): who operates the company's wallet and the transactions
// waiting for their approval. Read-only: operators see the team, members decide through the integrator.

/** A member as the case lists it. */
export interface CaseMember {
  userId: string;
  role: 'owner' | 'admin' | 'approver' | 'initiator' | 'viewer';
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  since: string;
}

/** A member's proposal waiting for the quorum. */
export interface PendingApproval {
  transactionId: string;
  kind: 'transfer' | 'withdrawal' | 'vault_deposit' | 'vault_withdrawal';
  chainId: number;
  toAddress: string | null;
  /** Wei, decimal. */
  value: string;
  proposedByUserId: string;
  createdAt: string;
  expiresAt: string;
  approvals: { required: number; received: { userId: string; at: string }[] };
}

/** What an entity's case adds; absent from other subjects' cases. */
export interface EntityTeam {
  requiredApprovals: number;
  members: CaseMember[];
  pendingApprovals: PendingApproval[];
}

/** The "expires in" texts are re-read this often: they change with time, not with the data. */
const TICK_MS = 30_000;

/** 0x1234…cdef: enough to recognise an address; the whole one is in the title. */
const shortAddress = (address: string) => (address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);

const fullName = (m: Pick<CaseMember, 'firstName' | 'lastName'>) => [m.firstName, m.lastName].filter(Boolean).join(' ');

/** "in 23 h 59 min", "expired": the time left, in the queue's coarse units. */
function timeLeft(expiresAt: string, now: number): string {
  const end = Date.parse(expiresAt);
  if (!(end > now)) return 'expired';
  // age() measures from its first argument to `now`; from now to the expiry is the same measure.
  const left = age(new Date(now).toISOString(), end);
  return left === 'just now' ? 'in under a minute' : `in ${left}`;
}

function membersTable(members: CaseMember[]): HTMLElement {
  if (members.length === 0) return h('p', { class: 'muted' }, 'No members yet: invite an owner');
  return h(
    'table',
    { class: 'team-table', id: 'members-table' },
    h('caption', { class: 'visually-hidden' }, 'Members of the company’s account, oldest first'),
    h('thead', {}, h('tr', {}, ['Name', 'Email', 'Role', 'Member since'].map((label) => h('th', { scope: 'col' }, label)))),
    h(
      'tbody',
      {},
      members.map((m) =>
        h(
          'tr',
          { dataset: { userId: m.userId } },
          h('td', { title: m.userId }, fullName(m) || h('span', { class: 'muted' }, '—')),
          h('td', {}, m.email ?? h('span', { class: 'muted' }, '—')),
          h('td', { dataset: { role: m.role } }, humanize(m.role)),
          h('td', {}, h('time', { datetime: m.since }, dateTime(m.since))),
        ),
      ),
    ),
  );
}

/**
 * "0.25 ETH on Base": the wei the proposal sends, exactly, in the chain's native coin. A proposal that sends none moves
 * a token or calls a contract (a token withdrawal, a vault call), whose amount the case does not carry: it says so
 * rather than "0.00 ETH".
 */
function nativeAmount(p: PendingApproval): HTMLElement | string {
  const coin = nativeSymbol(p.chainId);
  if (/^0*$/.test(p.value)) return h('span', { class: 'muted', title: `Sends no ${coin} on ${chainName(p.chainId)}: a token transfer or a contract call` }, `No ${coin} on ${chainName(p.chainId)}`);
  return cryptoAmount(fromBaseUnits(p.value, 18), coin, p.chainId);
}

function pendingTable(pending: PendingApproval[], names: ReadonlyMap<string, string>): HTMLElement {
  if (pending.length === 0) return h('p', { class: 'muted' }, 'No transactions waiting for approval');
  // A proposer removed since is no member any more: their id stays on hover.
  const who = (userId: string) => h('span', { title: userId }, names.get(userId) || 'Former member');
  const now = Date.now();
  return h(
    'table',
    { class: 'team-table', id: 'pending-approvals-table' },
    h('caption', { class: 'visually-hidden' }, 'Transactions waiting for the members’ approval, oldest first'),
    h('thead', {}, h('tr', {}, ['Kind', 'Amount', 'To', 'Proposed by', 'Approvals', 'Expires'].map((label) => h('th', { scope: 'col', class: label === 'Amount' ? 'amount' : undefined }, label)))),
    h(
      'tbody',
      {},
      pending.map((p) => {
        const approvers = p.approvals.received.map((r) => names.get(r.userId) || 'Former member');
        return h(
          'tr',
          { dataset: { transactionId: p.transactionId } },
          h('td', { title: p.transactionId }, humanize(p.kind)),
          h('td', { class: 'amount' }, nativeAmount(p)),
          h('td', {}, p.toAddress ? h('code', { title: p.toAddress }, shortAddress(p.toAddress)) : h('span', { class: 'muted' }, '—')),
          h('td', {}, who(p.proposedByUserId)),
          h(
            'td',
            { class: 'approvals' },
            h('strong', {}, `${p.approvals.received.length} of ${p.approvals.required}`),
            approvers.length ? h('span', { class: 'muted' }, ` · ${approvers.join(', ')}`) : null,
          ),
          h('td', {}, h('span', { class: 'time-left', dataset: { expiresAt: p.expiresAt } }, timeLeft(p.expiresAt, now)), h('br'), h('time', { datetime: p.expiresAt, class: 'muted' }, dateTime(p.expiresAt))),
        );
      }),
    ),
  );
}

/**
 * The "Members" and "Pending approvals" sections of a case page, hidden unless the case is an entity's. `update`
 * runs on every change of the case; each table is rebuilt only when its own data changed, so a refresh for another
 * reason (a new history entry, the other table) leaves it, and whatever is selected in it, alone.
 */
export function entityTeamSections(): { sections: HTMLElement[]; update(c: Case & Partial<EntityTeam>): void; destroy(): void } {
  const policy = h('p', { class: 'muted team-policy' });
  const membersSlot = h('div', { class: 'table-scroll' });
  const pendingSlot = h('div', { class: 'table-scroll' });
  const membersSection = h('section', { class: 'card', 'aria-labelledby': 'members-title', hidden: true }, h('h2', { id: 'members-title' }, 'Members'), policy, membersSlot);
  const pendingSection = h('section', { class: 'card', 'aria-labelledby': 'pending-approvals-title', hidden: true }, h('h2', { id: 'pending-approvals-title' }, 'Pending approvals'), pendingSlot);
  // One fingerprint per section: a proposal approved elsewhere redraws the pending table, not the members'.
  let membersShown = '';
  let pendingShown = '';

  const tick = async () => {
    const now = Date.now();
    for (const cell of pendingSlot.querySelectorAll<HTMLElement>('.time-left')) {
      const text = timeLeft(cell.dataset.expiresAt ?? '', now);
      if (cell.textContent !== text) cell.textContent = text;
    }
  };
  const stopTicking = poll(tick, TICK_MS);

  return {
    sections: [membersSection, pendingSection],
    update(c) {
      const isTeam = c.members !== undefined;
      membersSection.hidden = pendingSection.hidden = !isTeam;
      if (!isTeam) return;
      const team: EntityTeam = { requiredApprovals: c.requiredApprovals ?? 1, members: c.members ?? [], pendingApprovals: c.pendingApprovals ?? [] };
      const names = new Map(team.members.map((m) => [m.userId, fullName(m)]));
      const membersNext = JSON.stringify([team.requiredApprovals, team.members]);
      if (membersNext !== membersShown) {
        membersShown = membersNext;
        const approvers = team.members.filter((m) => m.role === 'owner' || m.role === 'approver').length;
        const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
        fill(policy, `Each transaction needs ${plural(team.requiredApprovals, 'approval', 'approvals')}; ${plural(approvers, 'member', 'members')} (owners and approvers) may approve.`);
        fill(membersSlot, membersTable(team.members));
      }
      // The pending table shows members' names, so a renamed or removed member redraws it too.
      const pendingNext = JSON.stringify([team.pendingApprovals, [...names]]);
      if (pendingNext !== pendingShown) {
        pendingShown = pendingNext;
        fill(pendingSlot, pendingTable(team.pendingApprovals, names));
      }
    },
    destroy: stopTicking,
  };
}
