/** Small pieces of a generated list's text: month names, two-digit numbers, filler remarks, a wallet, escaping. */
import type { Rng } from './screening-quality/random.js';

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const p2 = (n: number) => String(n).padStart(2, '0');
export const lorem = (rng: Rng, words: number) => {
  const pool = ['the', 'designated', 'person', 'is', 'involved', 'in', 'activities', 'that', 'undermine', 'stability', 'of', 'a', 'fictional', 'state', 'company', 'provides', 'support', 'to', 'regime', 'through', 'finance', 'procurement', 'shipping', 'and', 'director', 'owner', 'associated', 'with', 'network', 'sanctions', 'evasion', 'military', 'sector', 'economy'];
  return Array.from({ length: words }, () => rng.pick(pool)).join(' ');
};
export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
export const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
export const wallet = (rng: Rng) => `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[rng.int(16)]).join('')}`;
