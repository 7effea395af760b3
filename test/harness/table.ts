/**
 * The rows of a table of cases written as text: one case a line, its columns parted by ` | `, blank lines and
 * `//` lines (a comment on the cases below) skipped. Many cases read at a glance this way, where a line of quotes
 * and brackets each made every table of two strings look like every other. A line with another number of columns
 * throws, so that a slip in the table cannot drop a case unseen.
 */
export function rows(text: string, columns: 2): [string, string][];
export function rows(text: string, columns: 3): [string, string, string][];
export function rows(text: string, columns: number): string[][] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//'))
    .map((line) => {
      const cells = line.split(/\s+\|\s+/);
      if (cells.length !== columns) throw new Error(`a row of ${columns} columns expected: ${line}`);
      return cells;
    });
}
