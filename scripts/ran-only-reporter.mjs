// Node's spec reporter without the lines of skipped tests. `npm test -- webhooks --test-name-pattern=rotation` ran
// one test and, on Node 20 and 22, printed a "﹣ … # SKIP" line for each of the hundred others in the files it loaded;
// with --test-name-pattern, --test-skip-pattern or --test-only (scripts/run-tests.mjs picks this reporter then) those
// lines are dropped and the run shows what ran. The summary still counts every skipped test. The lines are dropped
// from spec's output, not the events from its input: spec pairs each test's start with its result and fails without.
import { Readable } from 'node:stream';
import { spec } from 'node:test/reporters';

const SKIPPED_LINE = /^\s*﹣ /;

export default async function* ranOnly(source) {
  for await (const chunk of Readable.from(source).pipe(new spec())) {
    const lines = String(chunk).split('\n');
    const kept = lines.filter((line) => !SKIPPED_LINE.test(line));
    if (kept.length === lines.length) yield chunk;
    else if (kept.some((line) => line !== '')) yield kept.join('\n');
  }
}
