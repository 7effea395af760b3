/**
 * The groups of /guides, in the order a newcomer reads them, each guide in exactly one (test/http/guide-groups.test.ts
 * walks docs/*.md and fails on a guide in no group, or in two). A new guide is added here when it is written.
 */
export const GUIDE_GROUPS: readonly { title: string; guides: readonly string[] }[] = [
  { title: 'Start here', guides: ['quickstart', 'authentication', 'sdk', 'errors', 'idempotency'] },
  {
    title: 'Integrate',
    guides: [
      'onboarding',
      'onboarding-links',
      'verification',
      'passkeys',
      'members',
      'invitations',
      'otp',
      'transactions',
      'tokens',
      'deposits',
      'withdrawals',
      'bank-accounts',
      'policies',
      'incoming',
      'ledger',
      'products',
      'events',
      'event-types',
      'webhooks',
      'openapi',
      'versioning',
    ],
  },
  { title: 'Operate', guides: ['deployment', 'key-management', 'pages', 'review', 'back-office', 'screening', 'reconciliation', 'bank-statements', 'metrics', 'security'] },
  { title: 'Internals', guides: ['architecture', 'decisions', 'scale', 'benchmarks'] },
];

/** Where a guide no group names is listed, so the page never hides one (the test still fails on it). */
export const UNGROUPED_TITLE = 'Other';

/** The guides' names grouped for the index: the groups' order, then any guide no group names. */
export function groupGuides(names: Iterable<string>): { title: string; guides: string[] }[] {
  const present = new Set(names);
  const grouped = GUIDE_GROUPS.map((g) => ({ title: g.title, guides: g.guides.filter((name) => present.has(name)) }));
  const named = new Set(GUIDE_GROUPS.flatMap((g) => g.guides));
  const rest = [...present].filter((name) => !named.has(name)).sort();
  if (rest.length > 0) grouped.push({ title: UNGROUPED_TITLE, guides: rest });
  return grouped.filter((g) => g.guides.length > 0);
}
