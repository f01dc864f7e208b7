import { ratio, round } from './stats.mjs';

// Rows of the result table: a figure, the reference measured in the same run, their ratio,
// and the target with met/missed and by how much.

/**
 * target: { text, ratioMax?, ratioMin?, below?, atLeast? } — ratio bounds are against the
 * reference; below/atLeast are absolute bounds on the value.
 */
export function row(
  section,
  metric,
  value,
  reference = { label: '', value: null },
  target = undefined,
  note = undefined,
) {
  const r =
    typeof value === 'number' && typeof reference.value === 'number' ? round(ratio(value, reference.value), 2) : null;
  const out = { section, metric, value, reference, ratio: r, target: target?.text ?? null, pass: null, margin: null };
  if (note) out.note = note;
  if (!target || typeof value !== 'number' || !Number.isFinite(value)) return out;
  const verdict = judge(value, r, target);
  if (verdict) Object.assign(out, verdict);
  return out;
}

const pct = x => `${Math.abs(Math.round(x * 100))}%`;

function judge(value, r, target) {
  if (target.ratioMax !== undefined && r !== null) {
    // A negative added cost (faster than direct) meets any "at most" target.
    const pass = r <= target.ratioMax;
    return {
      pass,
      margin: pass
        ? `met: ${r}× ≤ ${target.ratioMax}×`
        : `missed: ${r}× > ${target.ratioMax}× (${pct(r / target.ratioMax - 1)} over)`,
    };
  }
  if (target.ratioMin !== undefined && r !== null) {
    const pass = r >= target.ratioMin;
    return {
      pass,
      margin: pass
        ? `met: ${r}× ≥ ${target.ratioMin}×`
        : `missed: ${r}× < ${target.ratioMin}× (${pct(1 - r / target.ratioMin)} short)`,
    };
  }
  if (target.below !== undefined) {
    const pass = value < target.below;
    return {
      pass,
      margin: pass
        ? `met with ${pct(1 - value / target.below)} to spare`
        : `missed by ${round(value - target.below, 1)} (${pct(value / target.below - 1)} over)`,
    };
  }
  if (target.atLeast !== undefined) {
    const pass = value >= target.atLeast;
    return {
      pass,
      margin: pass
        ? `met: ${round(value / target.atLeast, 2)}× the target`
        : `missed by ${round(target.atLeast - value, 1)} (${pct(1 - value / target.atLeast)} short)`,
    };
  }
  return undefined;
}

const clip = (text, max = 110) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const cell = value => (value === null || value === undefined ? '—' : String(value));

/** A plain-text table for a terminal (and for pasting into bench/README.md inside a code block). */
export function renderTable(rows) {
  const header = ['section', 'figure', 'value', 'reference', 'ratio', 'target', 'result'];
  const lines = rows.map(r => [
    r.section,
    r.metric,
    cell(r.value),
    r.reference?.value === null || r.reference?.value === undefined
      ? r.reference?.label === 'reference'
        ? '(reference)'
        : '—'
      : `${r.reference.label} ${r.reference.value}`,
    cell(r.ratio),
    cell(r.target),
    r.pass === null ? (r.note ? `n/a: ${clip(r.note)}` : '') : r.pass ? `PASS (${r.margin})` : `MISS (${r.margin})`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map(l => (i === 6 ? 0 : l[i].length))));
  const format = l =>
    l
      .map((c, i) => (i === 6 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [format(header), format(header.map((_, i) => '-'.repeat(i === 6 ? 6 : widths[i]))), ...lines.map(format)].join(
    '\n',
  );
}

/** The same rows as a Markdown table, for bench/README.md. */
export function renderMarkdown(rows) {
  const esc = s => String(s).replace(/\|/g, '\\|');
  const out = [
    '| section | figure | value | reference | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    const ref =
      r.reference?.value === null || r.reference?.value === undefined
        ? r.reference?.label === 'reference'
          ? '(reference)'
          : '—'
        : `${r.reference.label} ${r.reference.value}`;
    const result =
      r.pass === null
        ? r.note
          ? `n/a: ${clip(r.note, 160)}`
          : ''
        : `${r.pass ? '**pass**' : '**miss**'} (${r.margin})`;
    out.push(
      `| ${[r.section, r.metric, cell(r.value), ref, cell(r.ratio), cell(r.target), result].map(esc).join(' | ')} |`,
    );
  }
  return out.join('\n');
}
