/**
 * One format measured in a process of its own (bench/list-readers.ts with `--measure`): loadListSync three times,
 * peak RSS and the heap the entries keep, the ScreeningIndex built over them, and 1,000 names screened against it.
 */
import { statSync } from 'node:fs';
import { ScreeningIndex } from '../../src/domain/screening/engine.js';
import { loadListSync, type LoadedList } from '../../src/domain/screening/load.js';
import type { ListEntry, ScreeningSubject } from '../../src/domain/screening/types.js';
import type { FormatKey } from './list-readers-formats.js';
import { Names } from './list-readers-names.js';
import { p2 } from './list-readers-text.js';
import { Rng } from './screening-quality/random.js';

const QUERIES = 1_000;

export interface Measured {
  key: FormatKey;
  format: LoadedList['format'];
  files: { name: string; bytes: number; rows?: number }[];
  entries: number;
  names: number;
  byType: Record<string, number>;
  parseMs: number[];
  parseMedianMs: number;
  rssBeforeMB: number;
  peakRssParseMB: number;
  heapRetainedByEntriesMB: number;
  indexBuildMs: number;
  peakRssIndexMB: number;
  heapRetainedByIndexMB: number;
  screening: { queries: number; totalMs: number; p50Ms: number; p99Ms: number; maxMs: number; queriesHit: number; listedQueriesHit: number; listedQueries: number };
}

export const MB = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const heapUsed = () => {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};
const maxRss = () => process.resourceUsage().maxRSS * 1024;

/** 1,000 names to screen: most made up by the same generator (so sharing many words with the list), a fifth listed ones, half of those misspelt. */
function queries(entries: readonly ListEntry[], seed: number): { subject: ScreeningSubject; listed: string | undefined }[] {
  const rng = new Rng(seed);
  const names = new Names(rng);
  return Array.from({ length: QUERIES }, () => {
    const r = rng.next();
    if (r < 0.2) {
      const entry = rng.pick(entries);
      const name = rng.chance(0.5) || entry.aliases.length === 0 ? entry.name : rng.pick(entry.aliases).name;
      const written = rng.chance(0.5) ? name.replace(/\p{L}{5,}/u, (w) => names.spelling(w)) : name;
      const kind = entry.type === 'individual' ? 'person' : 'entity';
      return { subject: { kind, names: [written] }, listed: entry.entryNumber };
    }
    if (r < 0.35) {
      const e = names.entity();
      return { subject: { kind: 'entity', names: [`${e.words} ${e.form}`] }, listed: undefined };
    }
    const p = names.person();
    return { subject: { kind: 'person', names: [[...p.given, p.family].join(' ')], familyName: p.family, birthDate: `${p.birth.y}-${p2(p.birth.m)}-${p2(p.birth.d)}` }, listed: undefined };
  });
}

export function measure(key: FormatKey, dir: string): Measured {
  const source = { label: key.toUpperCase(), path: dir, kind: 'folder' as const };
  const heap0 = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  const parseMs: number[] = [];
  let t = performance.now();
  let list = loadListSync(source);
  parseMs.push(performance.now() - t);
  const peakRssParse = maxRss();
  const heapEntries = heapUsed() - heap0;
  for (let i = 0; i < 2; i++) {
    t = performance.now();
    list = loadListSync(source);
    parseMs.push(performance.now() - t);
  }
  heapUsed();
  const heap1 = heapUsed();
  t = performance.now();
  const index = new ScreeningIndex(list.entries);
  const indexBuildMs = performance.now() - t;
  const peakRssIndex = maxRss();
  const heapIndex = heapUsed() - heap1;

  const qs = queries(list.entries, 5299);
  const times: number[] = [];
  let queriesHit = 0;
  let listedQueries = 0;
  let listedQueriesHit = 0;
  const started = performance.now();
  for (const q of qs) {
    const t0 = performance.now();
    const hits = index.screen(q.subject);
    times.push(performance.now() - t0);
    if (hits.length > 0) queriesHit++;
    if (q.listed !== undefined) {
      listedQueries++;
      if (hits.some((h) => h.entryNumber === q.listed)) listedQueriesHit++;
    }
  }
  const totalMs = performance.now() - started;
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  const r = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
  const byType: Record<string, number> = {};
  for (const e of list.entries) byType[e.type] = (byType[e.type] ?? 0) + 1;
  return {
    key,
    format: list.format,
    files: list.files.map((f) => ({ name: f.slice(dir.length + 1), bytes: statSync(f).size })),
    entries: list.entries.length,
    names: list.entries.reduce((n, e) => n + 1 + e.aliases.length, 0),
    byType,
    parseMs: parseMs.map((m) => r(m)),
    parseMedianMs: r([...parseMs].sort((a, b) => a - b)[1]!),
    rssBeforeMB: MB(rssBefore),
    peakRssParseMB: MB(peakRssParse),
    heapRetainedByEntriesMB: MB(heapEntries),
    indexBuildMs: r(indexBuildMs),
    peakRssIndexMB: MB(peakRssIndex),
    heapRetainedByIndexMB: MB(heapIndex),
    screening: { queries: qs.length, totalMs: r(totalMs), p50Ms: r(at(0.5), 3), p99Ms: r(at(0.99), 3), maxMs: r(times.at(-1)!, 3), queriesHit, listedQueries, listedQueriesHit },
  };
}
