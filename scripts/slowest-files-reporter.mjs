// A node:test reporter that prints, at the end of a run, the files that kept a worker busy longest: the first
// place to look when `npm test` nears its time budget. A file's time is from its first to its last reported
// test (Node 20 reports no file-level event), so it leaves out the file's import time.
// With INTEGRATOR_TEST_FAILURES set it also writes there one JSON line per failed test: its file and, for a test
// process that died, the signal that ended it (scripts/run-tests.mjs tells a native crash from a failed test by it).
// One reporter for both: a third one makes Node warn of an event-listener leak on every run.
import { appendFileSync } from 'node:fs';

const SHOWN = 12;
const FAILURES = process.env.INTEGRATOR_TEST_FAILURES;

export default async function* slowestFiles(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (FAILURES && event.type === 'test:fail') {
      const signal = details?.error?.signal ?? details?.error?.cause?.signal ?? null;
      appendFileSync(FAILURES, `${JSON.stringify({ file: file ?? null, name: event.data.name, nesting, signal })}\n`);
    }
    if (!file || nesting !== 0) continue;
    const seen = files.get(file) ?? { tests: 0, sum: 0, first: Date.now() - (details?.duration_ms ?? 0) };
    seen.tests += 1;
    seen.sum += details?.duration_ms ?? 0;
    seen.last = Date.now();
    files.set(file, seen);
  }
  const rows = [...files.entries()]
    .map(([file, s]) => ({ file: file.replace(`${process.cwd()}/`, ''), wall: (s.last - s.first) / 1000, sum: s.sum / 1000, tests: s.tests }))
    .sort((a, b) => b.wall - a.wall)
    .slice(0, SHOWN);
  yield `\nslowest files (seconds from first to last test; sum of top-level test durations):\n`;
  for (const r of rows) yield `${r.wall.toFixed(1).padStart(7)} ${r.sum.toFixed(1).padStart(7)}  ${r.file} (${r.tests})\n`;
}
