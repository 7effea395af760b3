/** bench/side-by-side.ts's arguments, arithmetic and table: per server, its rounds' CPU per request and their medians. */
import { resolve } from 'node:path';
import { median } from './report.js';

/** `dir@A=1,B=2` → the directory and its extra environment (from the first `@`; values cannot hold a comma). */
export function parseBuild(arg: string): { dir: string; env: Record<string, string> } {
  const at = arg.indexOf('@');
  const [dir, settings] = at < 0 ? [arg, ''] : [arg.slice(0, at), arg.slice(at + 1)];
  const env = Object.fromEntries(
    settings
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new Error(`"${pair}" in ${arg} is not NAME=value`);
        return [pair.slice(0, eq), pair.slice(eq + 1)];
      }),
  );
  return { dir: resolve(dir), env };
}

/** One server's figures in one round, in µs per answered request. */
export interface RoundFigures {
  eventLoopUs: number;
  totalUs: number;
}

export interface ServerSummary {
  name: string;
  /** The event loop's µs per request: median, least and most of the rounds. */
  eventLoop: { median: number; min: number; max: number };
  /** The whole process's µs per request (every thread), median of the rounds. */
  totalMedian: number;
  /** Median over rounds of total / the equivalent's total in the same round (undefined for the equivalent itself). */
  vsEquivalent: number | undefined;
}

/**
 * `rounds[server][i]` is server's i-th round; `equivalent` names the bare equivalent among them. A build's ratio is
 * taken round by round against the equivalent's figure of the same round (seconds apart), then its median: the
 * machine's drift between rounds cancels, as in the whole bench's CPU goals.
 */
export function summarize(rounds: Record<string, RoundFigures[]>, equivalent: string): ServerSummary[] {
  const base = rounds[equivalent];
  return Object.entries(rounds).map(([name, figures]) => {
    const loop = figures.map((f) => f.eventLoopUs);
    const ratios = name === equivalent || !base ? [] : figures.flatMap((f, i) => (base[i] && base[i].totalUs > 0 ? [f.totalUs / base[i].totalUs] : []));
    return {
      name,
      eventLoop: { median: median(loop), min: Math.min(...loop), max: Math.max(...loop) },
      totalMedian: median(figures.map((f) => f.totalUs)),
      vsEquivalent: ratios.length > 0 ? median(ratios) : undefined,
    };
  });
}

export function table(summaries: readonly ServerSummary[]): string {
  const width = Math.max(...summaries.map((s) => s.name.length), 6);
  const head = `${'server'.padEnd(width)}  event loop µs/req (median, rounds' range)  whole process µs/req  vs equivalent`;
  const rows = summaries.map(
    (s) =>
      `${s.name.padEnd(width)}  ${s.eventLoop.median.toFixed(1).padStart(8)} (${s.eventLoop.min.toFixed(0)}-${s.eventLoop.max.toFixed(0)})`.padEnd(width + 44) +
      `${s.totalMedian.toFixed(1).padStart(20)}  ${s.vsEquivalent === undefined ? '-' : s.vsEquivalent.toFixed(3)}`,
  );
  return [head, ...rows].join('\n');
}
