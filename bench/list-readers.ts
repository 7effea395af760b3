/**
 * npx tsx bench/list-readers.ts: the sanctions list readers at the real lists' sizes (issue 52). From a fixed seed it
 * writes one list of each format the server reads (docs/screening.md#lists-and-their-formats), in the shapes of the
 * samples in config/screening/*-sample/ repeated and varied, with generated fictional names: OFAC's SDN files (18,000
 * entries), the EU's FSF XML (5,600 entities, ~30,000 nameAlias, ~20 MB), the UN's consolidated XML (1,000
 * individuals and entities, ~2 MB) and the UK Sanctions List's CSV (5,000 designations in ~20,000 rows). Each is then
 * measured in a process of its own (so its peak RSS is its own): loadListSync (median of 3), the entries and names it
 * gives, peak RSS and the heap it keeps, the ScreeningIndex built over it, and 1,000 random names screened against it.
 * Writes bench/results/list-readers-latest.json. LIST_READERS_SCALE (default 1) scales every list;
 * LIST_READERS_KEEP=1 keeps the generated files (their folder is printed).
 *
 * The parts live in bench/lib/list-readers-*.ts: names and text (the generated names and filler), one generator per
 * format (ofac, eu, un, uk), formats (the four, with their real sizes) and measure (what the measuring process does).
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORMATS, type FormatKey } from './lib/list-readers-formats.js';
import { MB, measure, type Measured } from './lib/list-readers-measure.js';

const SCALE = Number(process.env.LIST_READERS_SCALE ?? 1);

function runChild(key: FormatKey, dir: string): Promise<Measured> {
  return new Promise((resolvePromise, reject) => {
    // The same loader flags tsx gave this process, and gc() to read the heap an object graph keeps.
    const child = fork(import.meta.filename, ['--measure', key, dir], { execArgv: [...process.execArgv, '--expose-gc'] });
    let result: Measured | undefined;
    child.on('message', (m) => (result = m as Measured));
    child.on('error', reject);
    child.on('exit', (code) => (result && code === 0 ? resolvePromise(result) : reject(new Error(`${key}: the measuring process exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'list-readers-'));
  const load = { start: loadavg().map((l) => Math.round(l * 100) / 100) };
  const results: (Measured & { label: string; generateMs: number })[] = [];
  try {
    for (const f of FORMATS) {
      const dir = join(root, f.key);
      mkdirSync(dir);
      const t = performance.now();
      f.generate(dir, Math.round(f.count * SCALE));
      const generateMs = Math.round(performance.now() - t);
      const measured = await runChild(f.key, dir);
      results.push({ label: f.label, generateMs, ...measured });
      const m = measured;
      console.log(`${f.label}: ${m.files.map((x) => `${x.name} ${MB(x.bytes)} MB`).join(', ')}; ${m.entries} entries, ${m.names} names; parse ${m.parseMs.join(' / ')} ms; peak RSS ${m.peakRssParseMB} MB (from ${m.rssBeforeMB}), heap kept ${m.heapRetainedByEntriesMB} MB; index ${m.indexBuildMs} ms, +${m.heapRetainedByIndexMB} MB heap, peak RSS ${m.peakRssIndexMB} MB; ${m.screening.queries} screenings ${m.screening.totalMs} ms (p99 ${m.screening.p99Ms} ms), listed found ${m.screening.listedQueriesHit}/${m.screening.listedQueries} (load ${loadavg()[0]!.toFixed(2)})`);
    }
  } finally {
    if (process.env.LIST_READERS_KEEP === '1') console.log(`files kept in ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  const out = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    scale: SCALE,
    loadAverage: { ...load, end: loadavg().map((l) => Math.round(l * 100) / 100) },
    formats: results,
  };
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'list-readers-latest.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(`load average ${out.loadAverage.start.join(' ')} at the start, ${out.loadAverage.end.join(' ')} at the end; bench/results/list-readers-latest.json`);
}

const at = process.argv.indexOf('--measure');
if (at >= 0) {
  const result = measure(process.argv[at + 1] as FormatKey, process.argv[at + 2]!);
  process.send!(result, () => process.exit(0));
} else {
  await main();
}
