// The one table printer. Only the CLI prints tables (ps, servers, search, the command list of
// hub --help): hub's tools answer clients with line-oriented text (process/render.ts,
// tools/registry*.ts), so it lives here rather than in core/. tools/table.ts is not a printer:
// it is the lookup table of hub's own tools.

/** Columns padded to their widest cell, two spaces apart, the last one unpadded. */
export function renderTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return rows.map(line).join('\n');
}
