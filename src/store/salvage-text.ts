// Record by record out of a db.json that is no longer JSON (cut short by a full disk, a typo by
// hand). hub writes db.json as JSON.stringify(data, null, 2), so a section starts at two
// spaces of indentation and each record at four: every record is cut out on its own and parsed
// on its own, so one damaged record (or a cut in the middle of the last one) costs only itself.

type Section = 'servers' | 'processes' | 'reservations' | 'kept';

export interface TextSalvage {
  readonly version: number | undefined;
  readonly sections: Record<Section, Record<string, unknown>>;
  /** "processes.<key>" of each record whose text could not be parsed. */
  readonly unreadable: string[];
}

const SECTION_START = /^ {2}"(servers|processes|reservations|kept)": \{/gm;
const RECORD_START = /^ {4}("(?:[^"\\\n]|\\.)*"): /gm;
// A section ends at its closing brace at two spaces (records' own lines are deeper).
const SECTION_END = /^ {2}\}/m;

function parseRecord(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim().replace(/,$/, '');
  try {
    return { ok: true, value: JSON.parse(trimmed) as unknown };
  } catch {
    return { ok: false };
  }
}

export function salvageText(text: string): TextSalvage {
  const sections: Record<Section, Record<string, unknown>> = {
    servers: {},
    processes: {},
    reservations: {},
    kept: {},
  };
  const unreadable: string[] = [];
  const version = /^ {2}"version": (\d+)/m.exec(text)?.[1];
  const starts = [...text.matchAll(SECTION_START)];
  starts.forEach((start, index) => {
    const name = start[1] as Section;
    const from = start.index + start[0].length;
    let body = text.slice(from, starts[index + 1]?.index ?? text.length);
    const end = SECTION_END.exec(body);
    if (end) body = body.slice(0, end.index);
    const records = [...body.matchAll(RECORD_START)];
    records.forEach((record, at) => {
      let key: string;
      try {
        key = JSON.parse(record[1]!) as string;
      } catch {
        return;
      }
      const valueText = body.slice(record.index + record[0].length, records[at + 1]?.index ?? body.length);
      const parsed = parseRecord(valueText);
      if (parsed.ok) sections[name][key] = parsed.value;
      else unreadable.push(`${name}.${key}`);
    });
  });
  return { version: version === undefined ? undefined : Number(version), sections, unreadable };
}
