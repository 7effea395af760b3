import { byId, fill, h } from './dom';

const GROUPS: [string, [string[], string][]][] = [
  [
    'Queue',
    [
      [['j', '↓'], 'Next case'],
      [['k', '↑'], 'Previous case'],
      [['Enter'], 'Open the selected case'],
      [['n'], 'Next page'],
      [['p'], 'Previous page'],
      [['/'], 'Go to the filters'],
    ],
  ],
  [
    'Case',
    [
      [['a'], 'Approve: shows the confirmation (Enter confirms, Esc cancels); under four eyes, the proposal and its note; never while a screening hit waits for its disposition'],
      [['r'], 'Request resubmission (type the reason, then Ctrl+Enter)'],
      [['x'], 'Reject (type the reason, then Ctrl+Enter)'],
      [['Esc'], 'Back to the queue'],
    ],
  ],
  [
    'Bank accounts',
    [
      [['j', '↓'], 'Next bank account'],
      [['k', '↑'], 'Previous bank account'],
      [['Enter'], 'Open the selected bank account'],
    ],
  ],
  [
    'Bank account',
    [
      [['a'], 'Approve: shows the confirmation (Enter confirms, Esc cancels)'],
      [['x'], 'Reject (type the reason, then Ctrl+Enter)'],
      [['Esc'], 'Back to the bank accounts'],
    ],
  ],
  [
    'Withdrawals',
    [
      [['j', '↓'], 'Next payout'],
      [['k', '↑'], 'Previous payout'],
      [['Enter'], 'Open the selected payout'],
      [['/'], 'Go to the status filter'],
    ],
  ],
  ['Withdrawal', [[['Esc'], 'Back to the withdrawals (the payout steps have no keys: each is a deliberate click)']]],
  [
    'Deposits',
    [
      [['j', '↓'], 'Next deposit'],
      [['k', '↑'], 'Previous deposit'],
      [['Enter'], 'Open the selected deposit'],
      [['n'], 'Next page'],
      [['p'], 'Previous page'],
      [['/'], 'Go to the reference field'],
    ],
  ],
  [
    'Deposit',
    [
      [['/'], 'Go to the reference field'],
      [['Esc'], 'Back to the deposits'],
    ],
  ],
  [
    'Ledger',
    [
      [['j', '↓'], 'Next account'],
      [['k', '↑'], 'Previous account'],
      [['Enter'], 'Open the selected account'],
      [['n'], 'Next page'],
      [['p'], 'Previous page'],
      [['/'], 'Go to the kind filter'],
    ],
  ],
  [
    'Ledger account',
    [
      [['j', '↓'], 'Next entry'],
      [['k', '↑'], 'Previous entry'],
      [['Enter'], 'Open the selected entry’s transaction'],
      [['n'], 'Older entries'],
      [['p'], 'Newer entries'],
      [['Esc'], 'Back to the ledger'],
    ],
  ],
  ['Ledger transaction', [[['Esc'], 'Back to the ledger']]],
  [
    'Reconciliation',
    [
      [['j', '↓'], 'Next run'],
      [['k', '↑'], 'Previous run'],
      [['Enter'], 'Open the selected run'],
      [['n'], 'Older runs'],
      [['p'], 'Newer runs'],
      [['/'], 'Go to the kind filter'],
    ],
  ],
  ['Reconciliation run', [[['Esc'], 'Back to the runs (breaks and exceptions are worked with their forms: Tab to a field, Ctrl+Enter in a note sends its form)']]],
  ['Anywhere', [[['?'], 'Show these shortcuts']]],
];

/** The "?" dialog: a native modal <dialog>, so focus is trapped and Escape closes it. */
export function showShortcuts(): void {
  const dialog = byId<HTMLDialogElement>('shortcuts');
  if (dialog.open) return;
  const close = h('button', { type: 'button', class: 'button', onclick: () => dialog.close() }, 'Close');
  fill(
    dialog,
    h('h2', { id: 'shortcuts-title' }, 'Keyboard shortcuts'),
    GROUPS.map(([title, rows]) =>
      h(
        'section',
        { class: 'shortcut-group' },
        h('h3', {}, title),
        h(
          'dl',
          { class: 'shortcut-list' },
          rows.map(([keys, what]) => [
            h(
              'dt',
              {},
              keys.map((k, i) => [i > 0 ? ' or ' : null, h('kbd', {}, k)]),
            ),
            h('dd', {}, what),
          ]),
        ),
      ),
    ),
    h('p', { class: 'dialog-actions' }, close),
  );
  dialog.showModal();
  // Close is last: focused as the dialog opens, it would scroll a phone's dialog past every section but the last.
  close.focus({ preventScroll: true });
  dialog.scrollTop = 0;
}
