// What `integrator --help`, `integrator <command> --help` and `integrator --version` print (on stdout, exit 0); a
// mistake in the command line prints the usage on stderr instead and exits 64 (cli.ts).
import { readFileSync } from 'node:fs';
import { TRIGGER_TYPES, UsageError } from './cli-trigger.js';

/** `text` broken at spaces into lines of at most `width` characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && indent + last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${' '.repeat(indent)}${line}`).join('\n');
}

/** The command as the user ran it, for messages: the bin, or the repository's npm script. */
export const COMMAND = process.env.npm_lifecycle_event === 'cli' ? 'npm run -s cli --' : 'integrator';

const COMMANDS = `  login --base-url URL --private-key 0x..        saves a profile (mode 0600)
  whoami                                           the key's integrator, credential and scope
  request METHOD PATH [--data JSON|@file]          any operation, signed; prints the answer
  keys list
  keys create [--label TEXT] [--scope read_write|read_only]
  keys rotate                                      a new key replaces the profile's (the old one is deactivated)
  keys deactivate --public-key 0x..
  events list [--type TYPE] [--limit N]
  events tail [--type TYPE]                        prints events as they happen (long poll)
  listen --forward-to URL [--events T1,T2]         re-delivers events to a local URL, signed (Standard Webhooks v1)
  onboarding-links create --type individual|entity [--email ADDRESS] [--user USER_ID] [--redirect-url URL]
                   [--expires-in SECONDS|90m|1h]   a hosted onboarding link; prints it with its url (shown once)
  onboarding-links get ID                          the link and its status (pending, opened, completed, expired, revoked)
  onboarding-links revoke ID                       revokes it (its page answers 410), then prints it
  trigger TYPE [--data JSON|@file] [--subscription ID] [--account ID] [--chain-id N] [--url URL]
                                                   makes an event happen (sandbox), --data merged into the body
                                                   of the request that makes it; TYPE is one of
${wrap(TRIGGER_TYPES.join(', '), 51, 120)}`;

const FOOTER = `Options: --profile FILE (default $INTEGRATOR_PROFILE or ~/.config/integrator/profile.json)
Environment: INTEGRATOR_PRIVATE_KEY and INTEGRATOR_BASE_URL override the profile.`;

export const USAGE = `usage: ${COMMAND} <command> [options]
${COMMANDS}
  --help, -h                                       this text (${COMMAND} <command> --help: that command's)
  --version, -V                                    the SDK's version
${FOOTER}`;

/** The usage of one command: its lines of USAGE (with their continuation lines); an unknown command is a usage error. */
export function usageOf(command: string): string {
  const lines: string[] = [];
  let inCommand = false;
  for (const line of COMMANDS.split('\n')) {
    // A command's line starts with two spaces then its name; a longer indent continues the line above.
    if (/^ {2}\S/.test(line)) inCommand = line.slice(2).split(' ')[0] === command;
    if (inCommand) lines.push(line);
  }
  if (lines.length === 0) throw new UsageError(`unknown command ${command}\n${USAGE}`);
  return `usage: ${COMMAND} ${command} ...\n${lines.join('\n')}\n${FOOTER}`;
}

/** The version of the SDK package this CLI belongs to (its package.json: beside src/ in the repository, dist/ when installed). */
export function sdkVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
