/**
 * A PostgreSQL array literal of strings (each quoted, `"` and `\` escaped), sent as one value and cast in the statement
 * (`$1::text[]`, `::uuid[]`, `::timestamptz[]`): a list of any length keeps one statement text, and both drivers take
 * it alike.
 */
export function textArrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** textArrayLiteral with SQL nulls (`NULL`, unquoted) where a value is null. */
export function nullableArrayLiteral(values: (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;
}
