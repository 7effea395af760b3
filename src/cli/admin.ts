import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../db/schema/index.js';
import type { SubjectType } from '../db/repositories/verification.js';
import { deactivateCredentialAsOperator } from '../domain/credentials/credentials.js';
import { ApiError } from '../domain/errors.js';
import { createIntegrator, listIntegrators } from '../domain/integrators/integrators.js';
import { createOperator, listOperators } from '../domain/operators/operators.js';
import { DECISIONS, type Decision } from '../domain/verification/decisions.js';
import { decideAsOperator, getCase, listReviews } from '../domain/verification/review.js';
import { safeErrorMessage } from '../logging.js';
import { openSystem } from '../composition-root.js';

const DECISION_COMMANDS: Record<string, Decision> = Object.fromEntries(DECISIONS.map((d) => [d.replace('_', '-'), d]));
const SUBJECT_TYPES = ['user', 'associated_person', 'entity'] as const;

const USAGE = `usage: npm run -s admin -- <command>
  integrators create --name NAME [--public-key 0x..] [--scope read_write|read_only] [--label LABEL]
  integrators list
  credentials deactivate --public-key 0x..
  operators create --name NAME          prints the operator's bearer token once
  operators list
  review list [--status under_review] [--integrator ID] [--older-than SECONDS] [--limit N] [--starting-after CURSOR]
  review show --type user|associated_person|entity --id ID
  review ${Object.keys(DECISION_COMMANDS).join('|')} --type TYPE --id ID [--reason TEXT ...] [--document ID ...] --operator NAME
Uses the server's configuration (DATA_DIR or DATABASE_URL). Prints JSON on stdout.`;

class UsageError extends Error {}

function need(value: string | undefined, flag: string): string {
  if (!value || value.trim() === '') throw new UsageError(`${flag} is required\n${USAGE}`);
  return value.trim();
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'public-key': { type: 'string' },
      scope: { type: 'string' },
      label: { type: 'string' },
      status: { type: 'string' },
      integrator: { type: 'string' },
      'older-than': { type: 'string' },
      limit: { type: 'string' },
      'starting-after': { type: 'string' },
      type: { type: 'string' },
      id: { type: 'string' },
      reason: { type: 'string', multiple: true },
      document: { type: 'string', multiple: true },
      operator: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command] = positionals;
  if (values.help || !group) throw new UsageError(USAGE);
  const known =
    (group === 'integrators' && (command === 'create' || command === 'list')) ||
    (group === 'credentials' && command === 'deactivate') ||
    (group === 'operators' && (command === 'create' || command === 'list')) ||
    (group === 'review' && (command === 'list' || command === 'show' || (command !== undefined && command in DECISION_COMMANDS)));
  if (!known) throw new UsageError(`unknown command "${positionals.join(' ')}"\n${USAGE}`);

  // Check the arguments before touching the database.
  if (group === 'integrators' && command === 'create') {
    need(values.name, '--name');
    if (values.scope !== undefined && values.scope !== 'read_write' && values.scope !== 'read_only') throw new UsageError('--scope must be read_write or read_only');
  }
  if (group === 'credentials') need(values['public-key'], '--public-key');
  if (group === 'operators' && command === 'create') need(values.name, '--name');
  if (group === 'review' && command !== 'list') {
    if (!SUBJECT_TYPES.includes(values.type as SubjectType)) throw new UsageError(`--type must be one of ${SUBJECT_TYPES.join(', ')}`);
    if (!/^[0-9a-f-]{36}$/i.test(need(values.id, '--id'))) throw new UsageError('--id must be a UUID');
    if (command !== 'show') need(values.operator, '--operator');
  }
  if (group === 'review' && command === 'list' && values.status !== undefined && !VERIFICATION_STATUSES.includes(values.status as VerificationStatus)) {
    throw new UsageError(`--status must be one of ${VERIFICATION_STATUSES.join(', ')}`);
  }

  const config = loadConfig();
  const system = await openSystem(config);
  try {
    const now = system.clock();
    const db = system.database;
    if (group === 'integrators' && command === 'create') {
      const created = await createIntegrator(
        db,
        {
          name: values.name!.trim(),
          scope: (values.scope as 'read_write' | 'read_only' | undefined) ?? 'read_write',
          ...(values['public-key'] ? { publicKey: values['public-key'] } : {}),
          ...(values.label ? { label: values.label } : {}),
        },
        now,
      );
      const { credential: _credential, ...printed } = created;
      return printed;
    }
    if (group === 'integrators') return { integrators: await listIntegrators(db) };
    if (group === 'credentials') return { credential: await deactivateCredentialAsOperator({ db, now }, values['public-key']!) };
    if (group === 'operators' && command === 'create') return await createOperator(db, values.name!.trim(), now);
    if (group === 'operators') return { operators: await listOperators(db) };
    if (command === 'list') {
      const limit = values.limit ? Number(values.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be 1 to 100');
      const olderThan = values['older-than'] !== undefined ? Number(values['older-than']) : undefined;
      if (olderThan !== undefined && !(Number.isInteger(olderThan) && olderThan >= 0)) throw new UsageError('--older-than must be whole seconds');
      return await listReviews(db.db, {
        status: (values.status as VerificationStatus | undefined) ?? 'under_review',
        limit,
        now,
        ...(values.integrator ? { integratorId: values.integrator } : {}),
        ...(olderThan !== undefined ? { olderThanSeconds: olderThan } : {}),
        ...(values['starting-after'] ? { startingAfter: values['starting-after'] } : {}),
      });
    }
    const target = { subjectType: values.type as SubjectType, subjectId: values.id!.trim() };
    if (command === 'show') return await getCase(db, target.subjectType, target.subjectId);
    // The CLI acts as a named operator, recorded in the audit trail (it already holds database access).
    const operator = (await listOperators(db)).find((o) => o.name === values.operator && o.active);
    if (!operator) throw new UsageError(`no active operator named "${values.operator}" (create one with: operators create --name NAME)`);
    // `return await`: the finally below closes the database, so the work must finish first.
    return await decideAsOperator(db, target, DECISION_COMMANDS[command!]!, { reasons: values.reason ?? [], documents: values.document ?? [] }, { operatorId: operator.operatorId, name: operator.name }, system.policy, now);
  } finally {
    await system.close();
  }
}

try {
  const result = await run(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} catch (err) {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(64); // EX_USAGE
  }
  if (err instanceof ConfigError || err instanceof DataDirInUseError) {
    process.stderr.write(`error: ${err.message}\n`);
    process.exit(78);
  }
  if (err instanceof ApiError) {
    process.stderr.write(`error: ${err.code}: ${err.detail}${err.options.errors ? ` (${err.options.errors.map((e) => e.detail).join('; ')})` : ''}\n`);
    process.exit(err.status === 404 ? 66 : err.status === 409 ? 75 : 65); // EX_NOINPUT, EX_TEMPFAIL, EX_DATAERR
  }
  // Redacted like the logs: a failed query's message carries its parameters (names, emails, SSN digits).
  process.stderr.write(`error: ${safeErrorMessage(err)}\n`);
  process.exit(70);
}
