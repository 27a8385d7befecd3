/**
 * A shipped migration's statements, split into named per-table constants for reading, joined back into the exact
 * string it executed when it shipped. Each constant is a template literal that opens and closes on a line break; the
 * shipped string ended on its template literal's indentation, which is added back. A test pins the result's hash
 * (test/unit/store/shippedMigrationSql.test.ts): a shipped migration never changes (see index.ts).
 */
export function asShipped(statements: readonly string[]): string {
  return `${statements.join('')}    `;
}
