#!/usr/bin/env node
// `integrator`: the Integrator API from a terminal (the SDK package's bin; `npm run -s cli -- ...` in the repository).
// Keys come from the environment (INTEGRATOR_PRIVATE_KEY, INTEGRATOR_BASE_URL) or a profile file written by `login`
// with mode 0600. Every answer is printed as JSON on stdout; a failure prints its problem on stderr and exits 1.
import { randomBytes, createHmac } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createIntegratorClient, type IntegratorClient } from './client.js';
import { onboardingLinks } from './cli-onboarding-links.js';
import { TRIGGER_TYPES, UsageError, trigger } from './cli-trigger.js';
import { COMMAND, sdkVersion, USAGE, usageOf } from './cli-usage.js';
import { IntegratorApiError, IntegratorConnectionError } from './errors.js';

/** The base URL the requests go to and where it came from, for a connection error's message. */
let target: string | undefined;

interface Profile {
  baseUrl: string;
  privateKey: string;
}

function profilePath(given: string | undefined): string {
  if (given) return given;
  if (process.env.INTEGRATOR_PROFILE) return process.env.INTEGRATOR_PROFILE;
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'integrator', 'profile.json');
}

/** The environment, else the profile; a profile others may read is refused, as ssh refuses such a key. */
function loadProfile(path: string): Profile {
  const fromEnv = { baseUrl: process.env.INTEGRATOR_BASE_URL, privateKey: process.env.INTEGRATOR_PRIVATE_KEY };
  let saved: Partial<Profile> = {};
  if (existsSync(path)) {
    if ((statSync(path).mode & 0o077) !== 0) throw new UsageError(`${path} may be read by others: chmod 600 ${path}`);
    saved = JSON.parse(readFileSync(path, 'utf8')) as Partial<Profile>;
  }
  const baseUrl = fromEnv.baseUrl ?? saved.baseUrl;
  const privateKey = fromEnv.privateKey ?? saved.privateKey;
  if (!baseUrl || !privateKey) throw new UsageError(`no credentials: run \`${COMMAND} login --base-url URL --private-key 0x..\` or set INTEGRATOR_BASE_URL and INTEGRATOR_PRIVATE_KEY`);
  target = `${baseUrl} (from ${fromEnv.baseUrl ? 'INTEGRATOR_BASE_URL' : path})`;
  return { baseUrl, privateKey };
}

function saveProfile(path: string, profile: Profile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

function bodyOf(data: string | undefined): unknown {
  if (data === undefined) return undefined;
  const text = data.startsWith('@') ? readFileSync(data.slice(1), 'utf8') : data;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError('--data must be JSON (or @file holding JSON)');
  }
}

interface EventLike {
  id: string;
  type: string;
}

/**
 * Follows the integrator's events from now on: one long poll at a time (waitSeconds=25, order=asc, after the last
 * event seen), calling `onEvent` for each, in order, until the process is stopped.
 */
async function follow(api: IntegratorClient, types: string | undefined, onEvent: (event: EventLike) => Promise<void>): Promise<never> {
  const latest = await api.listEvents({ query: { limit: 1, ...(types ? { types } : {}) } });
  let cursor: string | undefined = latest.data[0]?.id;
  for (;;) {
    const page = await api.listEvents({ query: { order: 'asc', limit: 100, waitSeconds: 25, ...(cursor ? { startingAfter: cursor } : {}), ...(types ? { types } : {}) } }, { timeoutMs: 40_000 });
    for (const event of page.data) {
      await onEvent(event);
      cursor = event.id;
    }
  }
}

/** Re-delivers an event to a local URL with Standard Webhooks headers, HMAC-signed (`v1`) with the session's secret. */
async function forward(url: string, secret: Buffer, event: EventLike): Promise<string> {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${event.id}.${timestamp}.${body}`).digest('base64');
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    return String(res.status);
  } catch (err) {
    return `failed: ${(err as Error).message}`;
  }
}

/** The command line parsed; an unknown option or a missing value is a usage error (stderr, 64), not a crash. */
function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        profile: { type: 'string' },
        'base-url': { type: 'string' },
        'private-key': { type: 'string' },
        data: { type: 'string' },
        label: { type: 'string' },
        scope: { type: 'string' },
        'public-key': { type: 'string' },
        type: { type: 'string' },
        limit: { type: 'string' },
        'forward-to': { type: 'string' },
        events: { type: 'string' },
        subscription: { type: 'string' },
        account: { type: 'string' },
        'chain-id': { type: 'string' },
        url: { type: 'string' },
        email: { type: 'string' },
        user: { type: 'string' },
        'redirect-url': { type: 'string' },
        'expires-in': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
    });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\nRun \`${COMMAND} --help\` for the usage.`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, sub, ...rest] = positionals;
  // Asked for: printed on stdout, exit 0 (a missing command is a mistake: the usage goes to stderr, exit 64).
  if (values.version || values.help) {
    process.stdout.write(`${values.version ? sdkVersion() : command ? usageOf(command) : USAGE}\n`);
    return 0;
  }
  if (!command) throw new UsageError(USAGE);
  const path = profilePath(values.profile);

  if (command === 'login') {
    const baseUrl = values['base-url'];
    const privateKey = values['private-key'];
    if (!baseUrl || !privateKey) throw new UsageError('login needs --base-url and --private-key');
    const api = createIntegratorClient({ baseUrl, privateKey });
    target = `${baseUrl} (from --base-url)`;
    const me = await api.whoami();
    saveProfile(path, { baseUrl, privateKey });
    print({ profile: path, integratorId: me.integratorId, publicKey: api.publicKey });
    return 0;
  }

  const profile = loadProfile(path);
  const api = createIntegratorClient(profile);

  if (command === 'whoami') return print(await api.whoami()), 0;
  if (command === 'request') {
    const [method, target] = [sub, rest[0]];
    if (!method || !target) throw new UsageError('request METHOD PATH [--data JSON|@file]');
    const answer = await api.request(method, target, bodyOf(values.data));
    print(answer.body ?? { status: answer.status });
    return 0;
  }
  if (command === 'keys') {
    if (sub === 'list') return print(await api.listCredentials()), 0;
    if (sub === 'create') {
      const scope = (values.scope ?? 'read_write') as 'read_write' | 'read_only';
      return print(await api.createCredential({ body: { label: values.label ?? 'integrator cli', scope } })), 0;
    }
    if (sub === 'deactivate') {
      const pubkey = values['public-key'];
      if (!pubkey) throw new UsageError('keys deactivate --public-key 0x..');
      return print(await api.updateCredential({ path: { pubkey }, body: { active: false } })), 0;
    }
    if (sub === 'rotate') {
      // The new key deactivates the old one (a key may not deactivate itself), then replaces it in the profile.
      const created = await api.createCredential({ body: { label: values.label ?? 'rotated by integrator cli', scope: 'read_write' } });
      if (!created.privateKey) throw new Error('the server did not return the new private key');
      const next = createIntegratorClient({ baseUrl: profile.baseUrl, privateKey: created.privateKey });
      await next.updateCredential({ path: { pubkey: api.publicKey }, body: { active: false } });
      if (!process.env.INTEGRATOR_PRIVATE_KEY) saveProfile(path, { baseUrl: profile.baseUrl, privateKey: created.privateKey });
      print({ publicKey: created.credential.publicKey, deactivated: api.publicKey, ...(process.env.INTEGRATOR_PRIVATE_KEY ? { privateKey: created.privateKey, note: 'INTEGRATOR_PRIVATE_KEY is set: replace it with privateKey' } : { profile: path }) });
      return 0;
    }
    throw new UsageError('keys list|create|rotate|deactivate');
  }
  if (command === 'events') {
    if (sub === 'list') {
      const limit = values.limit ? Number(values.limit) : 20;
      return print(await api.listEvents({ query: { limit, ...(values.type ? { type: values.type } : {}) } })), 0;
    }
    if (sub === 'tail') {
      await follow(api, values.type, async (event) => void process.stdout.write(`${JSON.stringify(event)}\n`));
    }
    throw new UsageError('events list|tail');
  }
  if (command === 'listen') {
    const target = values['forward-to'];
    if (!target) throw new UsageError('listen --forward-to URL');
    const secret = randomBytes(32);
    process.stdout.write(`Ready: forwarding events to ${target}. Verify them with the signing secret whsec_${secret.toString('base64')} (Ctrl-C to stop)\n`);
    await follow(api, values.events, async (event) => {
      const status = await forward(target, secret, event);
      process.stdout.write(`${new Date().toISOString()} ${event.type} ${event.id} -> ${status}\n`);
    });
  }
  if (command === 'onboarding-links') return print(await onboardingLinks(api, sub, rest[0], values, COMMAND)), 0;
  if (command === 'trigger') {
    if (!sub) throw new UsageError(`${COMMAND} trigger TYPE, TYPE one of ${TRIGGER_TYPES.join(', ')}`);
    const overrides = bodyOf(values.data);
    if (overrides !== undefined && (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))) throw new UsageError(`${COMMAND} trigger: --data must be a JSON object`);
    return print(await trigger(api, sub, { overrides: overrides as Record<string, unknown> | undefined, subscription: values.subscription, account: values.account, chainId: values['chain-id'], url: values.url, command: COMMAND })), 0;
  }
  throw new UsageError(`unknown command ${command}\n${USAGE}`);
}

// This module is the bin's entry point only (the library's index does not import it).
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`${err.message}\n`);
    else if (err instanceof IntegratorApiError) process.stderr.write(`${JSON.stringify(err.problem, null, 2)}\n`);
    else if (err instanceof IntegratorConnectionError) process.stderr.write(`error: could not reach ${target ?? 'the server'}: ${err.message}\n`);
    else process.stderr.write(`error: ${(err as Error).message}\n`);
    process.exit(err instanceof UsageError ? 64 : 1);
  },
);
