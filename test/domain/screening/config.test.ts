import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { ofacFolder, SAMPLE, sdnRow } from './helpers.js';

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
};

describe('screening settings', () => {
  it('read SCREENING_LISTS, the threshold and the reload interval; the sample in sandbox by default', () => {
    const dir = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null)] });
    const c = loadConfig({ SCREENING_LISTS: `OFAC-SDN=${dir}, SAMPLE=${SAMPLE}`, SCREENING_THRESHOLD: '0.9', SCREENING_RELOAD_SECONDS: '60' });
    assert.deepEqual(c.screening.sources, [
      { label: 'OFAC-SDN', path: dir, kind: 'folder' },
      { label: 'SAMPLE', path: SAMPLE, kind: 'folder' },
    ]);
    assert.deepEqual(c.screening.loaded.map((l) => [l.source.label, l.entries.length]), [
      ['OFAC-SDN', 1],
      ['SAMPLE', 15],
    ]);
    assert.equal(c.screening.threshold, 0.9);
    assert.equal(c.screening.reloadMs, 60_000);
    const sandbox = loadConfig({});
    assert.deepEqual([sandbox.screening.sources.map((s) => s.label), sandbox.screening.threshold, sandbox.screening.reloadMs], [['OFAC-SAMPLE'], 0.88, 300_000]);
    const file = join(dir, 'legacy.csv');
    writeFileSync(file, 'name,birthDate,country,list\nJane Roe,,,L\n');
    assert.deepEqual(loadConfig({ WATCHLIST_FILE: file }).screening.sources, [{ label: 'WATCHLIST_FILE', path: file, kind: 'file' }], 'WATCHLIST_FILE alone replaces the sample');
  });

  it('stop the start with one line per bad list, naming its path, file and line', () => {
    const broken = ofacFolder({ sdn: [sdnRow(1, 'DOE, John', 'individual', 'SDGT', null), '2,"x"'] });
    const found = problems({ SCREENING_LISTS: `A=/nonexistent/a,B=${broken},bad label=/x,A=/y`, SCREENING_THRESHOLD: '2', SCREENING_RELOAD_SECONDS: 'soon' });
    assert.deepEqual(found, [
      'SCREENING_LISTS: "bad label=/x" must be LABEL=folder (a label of up to 64 letters, digits, . _ -, e.g. OFAC-SDN=/srv/lists/ofac)',
      'SCREENING_LISTS: the label A is given twice',
      'SCREENING_LISTS A: /nonexistent/a: cannot be read (ENOENT)',
      `SCREENING_LISTS B: ${broken}/SDN.CSV line 2: SDN.CSV has 12 columns, this row 2`,
      'SCREENING_THRESHOLD must be a number from 0.5 to 1 (got "2")',
      'SCREENING_RELOAD_SECONDS must be an integer from 0 to 86400 (got "soon")',
    ]);
    assert.deepEqual(problems({ WATCHLIST_FILE: '/nonexistent/list.csv' }), ['WATCHLIST_FILE /nonexistent/list.csv: cannot be read (ENOENT)']);
  });
});
