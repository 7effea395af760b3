/**
 * A person's or company's name as a comparison key: case, accents, punctuation and word order do not matter
 * ("Müller-Lüdenscheidt, Hans" and "hans muller ludenscheidt" have the same key).
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .sort()
    .join(' ');
}
