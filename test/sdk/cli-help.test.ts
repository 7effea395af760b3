import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../harness/root.js';

/*
 * `integrator --help`, `<command> --help` and `--version` as a user runs them: what was asked for goes to stdout with
 * exit 0 (so `integrator --help | less` works); a mistake in the command line goes to stderr with exit 64 (EX_USAGE).
 * No server: none of these calls one, and no credentials are needed.
 */
const CLI = join(ROOT, 'packages/sdk/src/cli.ts');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'packages/sdk/package.json'), 'utf8')) as { version: string }).version;
// No key nor profile: asking for help must not need them.
const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_|^INTEGRATOR_|^NODE_OPTIONS$/.test(k))), INTEGRATOR_PROFILE: join(ROOT, 'no-such-profile.json') };

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

describe('integrator --help and --version', () => {
  it('--help and -h print the usage on stdout and exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await cli(flag);
      assert.equal(code, 0, stderr);
      assert.equal(stderr, '');
      assert.match(stdout, /^usage: integrator <command> \[options\]\n/);
      for (const command of ['login', 'whoami', 'request', 'keys list', 'events tail', 'listen', 'onboarding-links create', 'onboarding-links get ID', 'trigger TYPE', '--version, -V']) assert.match(stdout, new RegExp(`\\n {2}${command}`), `${flag} lists ${command}`);
    }
  });

  it('--version and -V print the SDK package’s version and exit 0', async () => {
    for (const flag of ['--version', '-V']) {
      const { code, stdout, stderr } = await cli(flag);
      assert.equal(code, 0, stderr);
      assert.equal(stdout, `${VERSION}\n`);
    }
  });

  it('<command> --help prints that command’s usage only', async () => {
    const keys = await cli('keys', '--help');
    assert.equal(keys.code, 0, keys.stderr);
    assert.match(keys.stdout, /^usage: integrator keys \.\.\.\n {2}keys list\n {2}keys create .*\n {2}keys rotate .*\n {2}keys deactivate --public-key 0x\.\.\nOptions: /);
    const trigger = await cli('trigger', '-h');
    assert.equal(trigger.code, 0, trigger.stderr);
    assert.match(trigger.stdout, /webhook_subscription\.created/, 'the trigger types, on their continuation lines');
    assert.doesNotMatch(trigger.stdout, /keys list/);
    const links = await cli('onboarding-links', '--help');
    assert.equal(links.code, 0, links.stderr);
    assert.match(links.stdout, /^usage: integrator onboarding-links \.\.\.\n {2}onboarding-links create --type individual\|entity .*\n {3,}\[--expires-in .*\n {2}onboarding-links get ID .*\n {2}onboarding-links revoke ID .*\nOptions: /);
    const whoami = await cli('whoami', '--help');
    assert.match(whoami.stdout, /^usage: integrator whoami \.\.\.\n {2}whoami {2,}the key's integrator/);
  });

  it('mistakes stay usage errors: stderr and exit 64', async () => {
    const none = await cli();
    assert.equal(none.code, 64);
    assert.equal(none.stdout, '');
    assert.match(none.stderr, /^usage: integrator <command>/);
    const unknownOption = await cli('--bogus');
    assert.equal(unknownOption.code, 64);
    assert.match(unknownOption.stderr, /Unknown option '--bogus'[\s\S]*Run `integrator --help` for the usage\./);
    const unknownCommand = await cli('frobnicate', '--help');
    assert.equal(unknownCommand.code, 64);
    assert.match(unknownCommand.stderr, /^unknown command frobnicate\nusage: /);
    const missingValue = await cli('keys', 'create', '--label');
    assert.equal(missingValue.code, 64, 'an option without its value');
  });
});
