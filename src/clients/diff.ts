// A unified-style line diff for --dry-run. Config edits touch one entry, so the common
// head and tail are trimmed first and the LCS table only covers the changed middle.
type Op = { kind: ' ' | '-' | '+'; line: string };

function middleOps(before: string[], after: string[]): Op[] {
  const rows = before.length;
  const cols = after.length;
  const table = Array.from({ length: rows + 1 }, () => new Uint32Array(cols + 1));
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = cols - 1; j >= 0; j--) {
      table[i]![j] =
        before[i] === after[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < rows || j < cols) {
    if (i < rows && j < cols && before[i] === after[j]) {
      ops.push({ kind: ' ', line: before[i++]! });
      j++;
    } else if (i < rows && (j === cols || table[i + 1]![j]! >= table[i]![j + 1]!))
      ops.push({ kind: '-', line: before[i++]! });
    else ops.push({ kind: '+', line: after[j++]! });
  }
  return ops;
}

const toLines = (text: string): string[] => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

/** Unified diff of two texts with 3 lines of context; '' when they are equal. */
export function unifiedDiff(
  beforeText: string,
  afterText: string,
  beforeName: string,
  afterName: string,
  context = 3,
): string {
  if (beforeText === afterText) return '';
  const before = toLines(beforeText);
  const after = toLines(afterText);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const ops: Op[] = [
    ...before.slice(0, head).map(line => ({ kind: ' ' as const, line })),
    ...middleOps(before.slice(head, before.length - tail), after.slice(head, after.length - tail)),
    ...before.slice(before.length - tail).map(line => ({ kind: ' ' as const, line })),
  ];
  // Number every op, then merge the context windows around changes into hunks.
  const numbered = [];
  let oldNo = 1;
  let newNo = 1;
  for (const op of ops) {
    numbered.push({ ...op, oldNo, newNo });
    if (op.kind !== '+') oldNo++;
    if (op.kind !== '-') newNo++;
  }
  const ranges: Array<[number, number]> = [];
  numbered.forEach((op, index) => {
    if (op.kind === ' ') return;
    const from = Math.max(0, index - context);
    const to = Math.min(numbered.length, index + context + 1);
    const last = ranges.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });
  const out = [`--- ${beforeName}`, `+++ ${afterName}`];
  for (const [from, to] of ranges) {
    const hunk = numbered.slice(from, to);
    const oldCount = hunk.filter(op => op.kind !== '+').length;
    const newCount = hunk.filter(op => op.kind !== '-').length;
    const first = hunk[0]!;
    out.push(
      `@@ -${oldCount === 0 ? first.oldNo - 1 : first.oldNo},${oldCount} +${newCount === 0 ? first.newNo - 1 : first.newNo},${newCount} @@`,
    );
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return `${out.join('\n')}\n`;
}
