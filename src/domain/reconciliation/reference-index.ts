/**
 * Finding which expected references a statement line names. Banks rewrite remittance text (upper case, spaces
 * inserted, dashes dropped or turned into other dashes, a long text wrapped over two lines), so both sides are
 * normalized and a reference is looked for anywhere in the line's texts run together.
 */

/** Upper case, compatibility forms folded (full-width letters), whitespace and every kind of dash removed. */
export function normalizeReference(text: string): string {
  return text.normalize('NFKC').toUpperCase().replace(/[\s\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '');
}

/** Exact lookups by normalized reference, one per window length present, rather than each reference against each line. */
export class ReferenceIndex {
  private readonly byReference = new Map<string, number[]>();
  private readonly lengths: number[];

  /** `references[i]` is the i-th expected movement's; an empty one (after normalizing) names nothing. */
  constructor(references: readonly string[]) {
    references.forEach((reference, i) => {
      const key = normalizeReference(reference);
      if (key === '') return;
      const list = this.byReference.get(key);
      if (list) list.push(i);
      else this.byReference.set(key, [i]);
    });
    this.lengths = [...new Set([...this.byReference.keys()].map((k) => k.length))].sort((a, b) => a - b);
  }

  /**
   * The indexes of the references found in `texts`, ascending. The texts are joined without a separator, so a
   * reference a bank wrapped over two remittance lines is still found.
   */
  named(texts: readonly string[]): number[] {
    const haystack = normalizeReference(texts.join(''));
    const found = new Set<number>();
    for (const length of this.lengths) {
      for (let at = 0; at + length <= haystack.length; at++) {
        for (const i of this.byReference.get(haystack.slice(at, at + length)) ?? []) found.add(i);
      }
    }
    return [...found].sort((a, b) => a - b);
  }
}
