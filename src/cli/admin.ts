import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';
import { deactivateCredentialAsOperator } from '../domain/credentials/credentials.js';
import { ApiError } from '../domain/errors.js';
import { createIntegrator, listIntegrators } from '../domain/integrators/integrators.js';
import { openRuntime } from '../runtime.js';

const USAGE = `usage: npm run admin -- <command>
  integrators create --name NAME [--public-key 0x..] [--scope read_write|read_only] [--label LABEL]
  integrators list
  credentials deactivate --public-key 0x..
Uses the server's configuration (DATA_DIR or DATABASE_URL). Prints JSON on stdout.`;

class UsageError extends Error {}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'public-key': { type: 'string' },
      scope: { type: 'string' },
      label: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command] = positionals;
  if (values.help || !group) throw new UsageError(USAGE);
  const known = ['integrators create', 'integrators list', 'credentials deactivate'];
  if (!known.includes(`${group} ${command}`)) throw new UsageError(`unknown command "${positionals.join(' ')}"\n${USAGE}`);
  if (group === 'integrators' && command === 'create') {
    if (!values.name || values.name.trim() === '') throw new UsageError('--name is required');
    if (values.scope !== undefined && values.scope !== 'read_write' && values.scope !== 'read_only') {
      throw new UsageError('--scope must be read_write or read_only');
    }
  }
  if (group === 'credentials' && !values['public-key']) throw new UsageError('--public-key is required');

  const config = loadConfig();
  const runtime = await openRuntime(config);
  try {
    const now = systemClock();
    if (group === 'integrators' && command === 'create') {
      const created = await createIntegrator(
        runtime.database,
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
    if (group === 'integrators') return { integrators: await listIntegrators(runtime.database) };
    return { credential: await deactivateCredentialAsOperator({ db: runtime.database, now }, values['public-key']!) };
  } finally {
    await runtime.database.close();
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
    process.exit(65); // EX_DATAERR
  }
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exit(70);
}
