/** The evaluation's tables, as the bench prints them. */
import type { ClassResult, SplitResult } from './evaluate.js';

const pct = (r: number | null) => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
}

/** One table: a row per class, each split's recall and false-positive rate side by side. */
export function classTable(results: SplitResult[]): string {
  const widths = [16, ...results.flatMap(() => [7, 8, 7, 8])];
  const head = row(['class', ...results.flatMap((r) => [`${r.split} n`, 'recall', 'neg', 'FP rate'])], widths);
  const lines = [head, '-'.repeat(head.length)];
  const byClass = (r: SplitResult, cls: string) => r.classes.find((c) => c.cls === cls)!;
  for (const c of results[0]!.classes) {
    lines.push(row([c.cls, ...results.flatMap((r) => cells(byClass(r, c.cls)))], widths));
  }
  lines.push('-'.repeat(head.length));
  lines.push(row(['labelled pairs', ...results.flatMap((r) => [String(r.overall.pairs), pct(r.overall.recall), String(r.overall.negatives), pct(r.overall.fpRate)])], widths));
  return lines.join('\n');
}

function cells(c: ClassResult): string[] {
  if (c.cls === 'no_match') return ['', '', String(c.negatives), pct(c.fpRate)];
  return [String(c.pairs), pct(c.recall), c.negatives ? String(c.negatives) : '', c.negatives ? pct(c.fpRate) : ''];
}

/** Per kind within each class, for one split: found / pairs and false positives / negatives. */
export function kindTable(result: SplitResult): string {
  const lines: string[] = [];
  for (const c of result.classes) {
    const parts = Object.entries(c.kinds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, t]) => `${kind} ${t.pairs ? `${t.found}/${t.pairs}` : ''}${t.negatives ? `${t.pairs ? ' ' : ''}fp ${t.falsePositives}/${t.negatives}` : ''}`);
    lines.push(`${c.cls.padEnd(16)} ${parts.join(', ')}`);
  }
  return lines.join('\n');
}
