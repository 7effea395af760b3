// The operator CLI's commands (`npm run -s admin -- ...`); admin.ts is the process around them.
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config.js';
import { NARROWED_MESSAGE } from '../db/private-data-dir.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../db/schema/index.js';
import type { SubjectType } from '../db/repositories/verification.js';
import { deactivateCredentialAsOperator } from '../domain/credentials/credentials.js';
import { createIntegrator, listIntegrators } from '../domain/integrators/integrators.js';
import { createOperator, listOperators, setRole } from '../domain/operators/operators.js';
import { OPERATOR_ROLES, type OperatorRole } from '../domain/cases/permissions.js';
import { decideAsOperator } from '../domain/cases/operator-decisions.js';
import { DECISIONS, type Decision } from '../domain/verification/decisions.js';
import { getCase, listReviews } from '../domain/verification/review.js';
import { openSystem, type System } from '../composition-root.js';
import { parseUnits, type Address, type Hex } from 'viem';
import { ANVIL_DEV_KEY, deployDemoVault, LOCAL_CHAIN_ID, mintDemoToken } from '../chain/demo-vault.js';
import { registerVault, unregisterVault } from '../domain/vaults/vault-admin.js';
import { listVaultRefs } from '../domain/vaults/vault-registry.js';
import { keysCommand } from './keys-commands.js';
import { reconcileCommand } from './reconcile-commands.js';

const DECISION_COMMANDS: Record<string, Decision> = Object.fromEntries(DECISIONS.map((d) => [d.replace('_', '-'), d]));
const SUBJECT_TYPES = ['user', 'associated_person', 'entity'] as const;

const USAGE = `usage: npm run -s admin -- <command>
  integrators create --name NAME [--public-key 0x..] [--scope read_write|read_only] [--label LABEL]
  integrators list
  credentials deactivate --public-key 0x..
  operators create --name NAME [--role reviewer|supervisor]   prints the operator's bearer token once
  operators set-role --name NAME --role reviewer|supervisor   (a supervisor confirms another's proposal)
  operators list
  review list [--status under_review] [--integrator ID] [--older-than SECONDS] [--limit N] [--starting-after CURSOR]
  review show --type user|associated_person|entity --id ID
  review ${Object.keys(DECISION_COMMANDS).join('|')} --type TYPE --id ID [--reason TEXT ...] [--document ID ...] --operator NAME
  vaults list
  vaults add --chain-id N --address 0x..   registers an ERC-4626 vault (beside VAULTS)
  vaults remove --vault-id ID
  vaults deploy-demo --chain-id N [--deployer-key 0x..]   deploys a demo ERC-20 and vault and registers the vault
  vaults mint-demo --chain-id N --token 0x.. --to 0x.. --amount DECIMAL [--deployer-key 0x..]   (no database)
  keys status   each sealing key's fingerprint and how many values it still seals
  keys reseal   re-seals every sealed value under the newest key of ENCRYPTION_KEYS (progress on stderr)
  keys import-to-token   moves sealed wallet keys (and the treasury's) into the PKCS#11 token (CUSTODY_KEYS=pkcs11)
  reconcile chain   the ledger against every chain now: breaks per wallet and asset
  reconcile bank --file statement.xml   the ledger against the bank's camt.053 statement: matches and exceptions
Uses the server's configuration (DATA_DIR or DATABASE_URL). Prints JSON on stdout.`;

export class UsageError extends Error {}

function need(value: string | undefined, flag: string): string {
  if (!value || value.trim() === '') throw new UsageError(`${flag} is required\n${USAGE}`);
  return value.trim();
}

function chainIdArg(raw: string | undefined, chains: ReadonlyMap<number, string>): number {
  const chainId = Number(need(raw, '--chain-id'));
  if (!Number.isSafeInteger(chainId) || chainId < 0) throw new UsageError('--chain-id must be a chain id');
  if (!chains.has(chainId)) throw new UsageError(`chain ${chainId} is not in CHAIN_RPC_URLS (for the local demo: CHAIN_RPC_URLS=31337=http://127.0.0.1:8545)`);
  return chainId;
}

/** The key that deploys and mints demo contracts: given, or anvil's first development key on a local chain only. */
function deployerKey(raw: string | undefined, chainId: number | undefined): Hex {
  if (raw !== undefined) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) throw new UsageError('--deployer-key must be 0x and 64 hex digits');
    return raw as Hex;
  }
  if (chainId !== undefined && chainId !== LOCAL_CHAIN_ID) throw new UsageError(`--deployer-key is required on chain ${chainId} (the development key is used on the local chain ${LOCAL_CHAIN_ID} only)`);
  return ANVIL_DEV_KEY;
}

async function mintDemo(input: { rpcUrl: string; chainId: number; key: Hex; token: string | undefined; to: string | undefined; amount: string | undefined }) {
  const token = need(input.token, '--token');
  const to = need(input.to, '--to');
  if (!/^0x[0-9a-fA-F]{40}$/.test(token) || !/^0x[0-9a-fA-F]{40}$/.test(to)) throw new UsageError('--token and --to must be 0x and 40 hex digits');
  const amount = need(input.amount, '--amount');
  if (!/^[0-9]{1,30}(\.[0-9]{1,6})?$/.test(amount) || Number(amount) === 0) throw new UsageError('--amount must be a decimal greater than 0 with at most 6 decimals (dUSD)');
  return mintDemoToken({ rpcUrl: input.rpcUrl, chainId: input.chainId, signerKey: input.key, token: token as Address, to: to as Address, amount: parseUnits(amount, 6), gasTopUp: input.chainId === LOCAL_CHAIN_ID });
}

/** The CLI's own system (not a server's): a DATA_DIR its start narrowed is said on stderr, as a server logs it. */
async function openOwnSystem(config: Config, stderr: (line: string) => void): Promise<System> {
  const system = await openSystem(config);
  const narrowed = system.dataDirNarrowed;
  if (narrowed) stderr(`note: ${NARROWED_MESSAGE}: ${config.dataDir} (${narrowed.directories} directories, ${narrowed.files} files)\n`);
  return system;
}

export interface RunOptions {
  /** The running server's own system (admin-socket.ts): used as it is, and left open. */
  system?: System;
  /** Where progress lines go (the process's stderr by default). */
  stderr?: (line: string) => void;
}

/**
 * Runs one admin command; `env` is the configuration (the process's environment from the command line), unless the
 * command runs inside the server, which brings its own system.
 */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env, options: RunOptions = {}): Promise<unknown> {
  const stderr = options.stderr ?? ((line: string) => void process.stderr.write(line));
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
      role: { type: 'string' },
      'chain-id': { type: 'string' },
      address: { type: 'string' },
      'vault-id': { type: 'string' },
      'deployer-key': { type: 'string' },
      token: { type: 'string' },
      to: { type: 'string' },
      amount: { type: 'string' },
      file: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command] = positionals;
  if (values.help || !group) throw new UsageError(USAGE);
  const known =
    (group === 'integrators' && (command === 'create' || command === 'list')) ||
    (group === 'credentials' && command === 'deactivate') ||
    (group === 'operators' && ['create', 'list', 'set-role'].includes(command ?? '')) ||
    (group === 'review' && (command === 'list' || command === 'show' || (command !== undefined && command in DECISION_COMMANDS))) ||
    (group === 'vaults' && ['list', 'add', 'remove', 'deploy-demo', 'mint-demo'].includes(command ?? '')) ||
    (group === 'keys' && ['status', 'reseal', 'import-to-token'].includes(command ?? '')) ||
    (group === 'reconcile' && (command === 'chain' || command === 'bank'));
  if (!known) throw new UsageError(`unknown command "${positionals.join(' ')}"\n${USAGE}`);

  // Check the arguments before touching the database.
  if (group === 'integrators' && command === 'create') {
    need(values.name, '--name');
    if (values.scope !== undefined && values.scope !== 'read_write' && values.scope !== 'read_only') throw new UsageError('--scope must be read_write or read_only');
  }
  if (group === 'credentials') need(values['public-key'], '--public-key');
  if (group === 'reconcile' && command === 'bank') need(values.file, '--file');
  if (group === 'operators' && command !== 'list') need(values.name, '--name');
  if (group === 'operators' && (command === 'set-role' || values.role !== undefined) && !OPERATOR_ROLES.includes(need(values.role, '--role') as OperatorRole)) {
    throw new UsageError(`--role must be one of ${OPERATOR_ROLES.join(', ')}`);
  }
  if (group === 'review' && command !== 'list') {
    if (!SUBJECT_TYPES.includes(values.type as SubjectType)) throw new UsageError(`--type must be one of ${SUBJECT_TYPES.join(', ')}`);
    if (!/^[0-9a-f-]{36}$/i.test(need(values.id, '--id'))) throw new UsageError('--id must be a UUID');
    if (command !== 'show') need(values.operator, '--operator');
  }
  if (group === 'review' && command === 'list' && values.status !== undefined && !VERIFICATION_STATUSES.includes(values.status as VerificationStatus)) {
    throw new UsageError(`--status must be one of ${VERIFICATION_STATUSES.join(', ')}`);
  }

  const config = options.system?.config ?? loadConfig(env);
  if (group === 'vaults') {
    const chainId = command === 'list' || command === 'remove' ? undefined : chainIdArg(values['chain-id'], config.chainRpcUrls);
    if (command === 'add' && !/^0x[0-9a-fA-F]{40}$/.test(need(values.address, '--address'))) throw new UsageError('--address must be 0x and 40 hex digits');
    if (command === 'remove' && !/^[0-9a-f-]{36}$/i.test(need(values['vault-id'], '--vault-id'))) throw new UsageError('--vault-id must be a UUID');
    const key = deployerKey(values['deployer-key'], chainId);
    // Minting talks to the chain only: it runs beside a server holding the embedded database.
    if (command === 'mint-demo') return mintDemo({ rpcUrl: config.chainRpcUrls.get(chainId!)!, chainId: chainId!, key, token: values.token, to: values.to, amount: values.amount });
    const system = options.system ?? (await openOwnSystem(config, stderr));
    try {
      const now = system.clock();
      const db = system.database.db;
      if (command === 'list') return { vaults: await listVaultRefs(db, config.vaults, system.chains) };
      if (command === 'remove') return await unregisterVault(db, values['vault-id']!);
      if (command === 'add') return await registerVault(db, system.chains, { chainId: chainId!, address: values.address! }, now);
      const deployed = await deployDemoVault({ rpcUrl: config.chainRpcUrls.get(chainId!)!, chainId: chainId!, deployerKey: key });
      return { ...(await registerVault(db, system.chains, { chainId: chainId!, address: deployed.vault }, now)), token: deployed.token.toLowerCase() };
    } finally {
      if (!options.system) await system.close();
    }
  }
  const system = options.system ?? (await openOwnSystem(config, stderr));
  try {
    const now = system.clock();
    const db = system.database;
    if (group === 'keys') return await keysCommand(system, command as 'status' | 'reseal' | 'import-to-token', stderr);
    if (group === 'reconcile') return await reconcileCommand(system, command as 'chain' | 'bank', values.file);
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
    if (group === 'operators' && command === 'create') return await createOperator(db, values.name!.trim(), now, (values.role?.trim() as OperatorRole | undefined) ?? 'reviewer');
    if (group === 'operators' && command === 'set-role') {
      const changed = await setRole(db, values.name!.trim(), values.role!.trim() as OperatorRole);
      if (!changed) throw new UsageError(`no active operator named "${values.name}"`);
      return changed;
    }
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
    return await decideAsOperator(db, target, DECISION_COMMANDS[command!]!, { reasons: values.reason ?? [], documents: values.document ?? [] }, { operatorId: operator.operatorId, name: operator.name, role: operator.role }, system.policy, now);
  } finally {
    if (!options.system) await system.close();
  }
}

