/** The four list formats bench/list-readers.ts measures: each one's label, its real list's size and its generator. */
import { generateEu } from './list-readers-eu.js';
import { generateOfac } from './list-readers-ofac.js';
import { generateUk } from './list-readers-uk.js';
import { generateUn } from './list-readers-un.js';

export const FORMATS = [
  { key: 'ofac', label: "OFAC's SDN (SDN.CSV + ALT + ADD)", count: 18_000, generate: generateOfac },
  { key: 'eu', label: "EU's FSF XML", count: 5_600, generate: generateEu },
  { key: 'un', label: "UN's consolidated XML", count: 1_000, generate: generateUn },
  { key: 'uk', label: 'UK Sanctions List CSV', count: 5_000, generate: generateUk },
] as const;
export type FormatKey = (typeof FORMATS)[number]['key'];
