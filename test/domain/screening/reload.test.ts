import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ScreeningLists, type ListChange } from '../../../src/domain/screening/lists.js';
import { altRow, ofacFolder, sdnRow, writeOfac } from './helpers.js';

const ETH = '0x' + 'ab'.repeat(20);

describe('reloading the lists', () => {
  it('picks up a list changed on disk at the next check, and tells its listeners', async () => {
    const dir = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', 'DOB 1970.')] });
    const lists = new ScreeningLists([{ label: 'OFAC-SDN', path: dir, kind: 'folder' }]);
    const changes: ListChange[] = [];
    lists.onChange((c) => changes.push(c));
    const first = lists.versions()[0]!;
    assert.equal(lists.screen({ kind: 'person', names: ['Jane Roe'] }).length, 0);
    assert.deepEqual(await lists.check(), { changed: [], failed: [] }, 'unchanged files: nothing happens');

    writeOfac(dir, { sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', 'DOB 1970.'), sdnRow(2, 'ROE, Jane', 'individual', 'CYBER2', `Digital Currency Address - ETH ${ETH};`)], alt: [altRow(2, 1, 'ROE, Janet')] });
    assert.equal(lists.screen({ kind: 'person', names: ['Jane Roe'] }).length, 0, 'not before the check');
    const outcome = await lists.check();
    const second = lists.versions()[0]!;
    assert.notEqual(second.version, first.version);
    assert.deepEqual(outcome, { changed: [{ label: 'OFAC-SDN', version: second.version, previousVersion: first.version, entries: 2 }], failed: [] });
    assert.deepEqual(changes, outcome.changed);
    assert.equal(lists.screen({ kind: 'person', names: ['Janet Roe'] })[0]?.entryNumber, '2');
    assert.equal(lists.addressHit(ETH.toUpperCase().replace('0X', '0x'))?.entryNumber, '2');
  });

  it('keeps the loaded version when the new files are broken, and takes the next good one', async () => {
    const dir = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null)] });
    const lists = new ScreeningLists([{ label: 'OFAC-SDN', path: dir, kind: 'folder' }]);
    const version = lists.versions()[0]!.version;
    let told = 0;
    lists.onChange(() => told++);
    writeFileSync(join(dir, 'SDN.CSV'), `${sdnRow(1, 'DOE, John', 'individual', 'SDGT', null)}\n2,"half a row"\n`);
    const outcome = await lists.check();
    assert.deepEqual(outcome.changed, []);
    assert.equal(outcome.failed.length, 1);
    assert.match(outcome.failed[0]!.problem, new RegExp(`^${dir}/SDN\\.CSV line 2: SDN\\.CSV has 12 columns`));
    assert.equal(lists.versions()[0]!.version, version);
    assert.equal(lists.screen({ kind: 'person', names: ['John Doe'] })[0]?.entryNumber, '1', 'the old list still screens');
    assert.equal(told, 0);

    writeOfac(dir, { sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null), sdnRow(2, 'ROE, Jane', 'individual', 'SDGT', null)] });
    assert.equal((await lists.check()).changed.length, 1);
    assert.equal(told, 1);
    assert.equal(lists.versions()[0]!.entries, 2);
  });

  it('a check asked for during one is another check after it, one for everyone who asked meanwhile', async () => {
    const dir = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null)] });
    const lists = new ScreeningLists([{ label: 'OFAC-SDN', path: dir, kind: 'folder' }]);
    const first = lists.check();
    const second = lists.check();
    assert.notEqual(second, first, 'the first may have read the files before a change the caller knows of');
    assert.equal(lists.check(), second);
    assert.deepEqual(await first, { changed: [], failed: [] });
    assert.deepEqual(await second, { changed: [], failed: [] });
    assert.notEqual(lists.check(), second, 'once both ended, a check is a new one');
  });

  it('watch() checks on its interval and logs what happened; now() checks at once (SIGHUP)', { timeout: 30_000 }, async () => {
    const dir = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null)] });
    const lists = new ScreeningLists([{ label: 'OFAC-SDN', path: dir, kind: 'folder' }]);
    const logged: string[] = [];
    const log = { info: (_: unknown, msg: string) => logged.push(msg), warn: (_: unknown, msg: string) => logged.push(msg), error: (_: unknown, msg: string) => logged.push(msg) };
    const watch = lists.watch(20, log);
    try {
      // The interval's check finds the change (told by the listener, not polled for); its log line follows as it ends.
      const reloaded = new Promise((resolve) => lists.onChange(resolve));
      writeOfac(dir, { sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null), sdnRow(2, 'ROE, Jane', 'individual', 'SDGT', null)] });
      await reloaded;
      assert.equal(lists.versions()[0]!.entries, 2);
      // now() reads the files as they are when it is called, even while the interval's check is under way.
      writeFileSync(join(dir, 'ALT.CSV'), 'nonsense');
      const outcome = await watch.now();
      assert.equal(outcome.failed.length, 1, JSON.stringify(outcome));
      assert.ok(logged.includes('screening list reloaded'));
      assert.ok(logged.includes('screening list could not be reloaded; the loaded version stays'));
    } finally {
      watch.stop();
    }
  });
});
