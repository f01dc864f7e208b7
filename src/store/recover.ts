// A damaged db.json decoded record by record, lost records taken from the backup, migrations.
import { z } from 'zod';
import { locateJsonError, placeOf } from './json-locate.js';
import { salvageText } from './salvage-text.js';
import {
  KeptDecisionsSchema,
  ProcessRecordSchema,
  ServerRecordSchema,
  STORE_VERSION,
  StoreDataSchema,
  emptyStore,
  type StoreData,
} from './schema.js';

/** What was wrong with a damaged db.json and what recovery could not bring back. */
export interface Damage {
  /** What is wrong, e.g. "not valid JSON" or "processes.p2.pid: expected number". */
  readonly reason: string;
  /** Where: "line 12, column 5" of the file, or the record ("record processes.p2"). */
  readonly where: string;
  /** "section.key" of each record that could not be read from the file. */
  readonly unreadable: string[];
  /** "section.key" of each record taken from the backup (db.json.bak) instead. */
  readonly fromBackup: string[];
}

export type Decoded =
  | { kind: 'ok'; data: StoreData }
  | { kind: 'corrupt'; data: StoreData; damage: Damage; reason: string; dropped: number }
  | { kind: 'newer'; version: number };

// Migration hook: each step takes the previous version's raw object to the next.
const MIGRATIONS: Record<number, (raw: Record<string, unknown>) => Record<string, unknown>> = {
  // 0 → 1: files written before the version field existed.
  0: raw => ({ ...raw, version: 1 }),
};

function migrate(raw: Record<string, unknown>): Record<string, unknown> {
  let current = raw;
  let version = typeof current.version === 'number' ? current.version : 0;
  while (version < STORE_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) break;
    current = step(current);
    version += 1;
  }
  return current;
}

type Section = 'servers' | 'processes' | 'reservations' | 'kept';
const SECTIONS: readonly Section[] = ['servers', 'processes', 'reservations', 'kept'];

// Keeps every record that still parses, so one bad record never costs the others.
function salvage(raw: Record<string, unknown>): { data: StoreData; failed: string[] } {
  const data = emptyStore();
  const failed: string[] = [];
  const pick = <S extends z.ZodType>(section: Section, schema: S, into: Record<string, z.infer<S>>) => {
    const source = raw[section];
    if (!source || typeof source !== 'object') return;
    for (const [key, value] of Object.entries(source)) {
      const parsed = schema.safeParse(value);
      if (parsed.success) into[key] = parsed.data;
      else failed.push(`${section}.${key}`);
    }
  };
  pick('servers', ServerRecordSchema, data.servers);
  pick('processes', ProcessRecordSchema, data.processes);
  pick('reservations', z.number(), data.reservations);
  pick('kept', KeptDecisionsSchema, data.kept);
  return { data, failed };
}

// Records the damaged file lost, taken from the last good copy: only the unreadable ones when
// the file was still JSON, every missing one when it was cut or garbled (what followed the
// damage is unknown, and a record back from one write ago beats a running process lost).
function fillFromBackup(
  data: StoreData,
  backup: StoreData,
  unreadable: readonly string[],
  wholeFile: boolean,
): string[] {
  const taken: string[] = [];
  for (const section of SECTIONS) {
    const into = data[section] as Record<string, unknown>;
    for (const [key, value] of Object.entries(backup[section])) {
      if (key in into || (!wholeFile && !unreadable.includes(`${section}.${key}`))) continue;
      into[key] = value;
      if (section !== 'reservations') taken.push(`${section}.${key}`);
    }
  }
  return taken;
}

function corrupt(
  data: StoreData,
  reason: string,
  where: string,
  failed: string[],
  backup: StoreData | undefined,
  wholeFile: boolean,
): Decoded {
  const fromBackup = backup ? fillFromBackup(data, backup, failed, wholeFile) : [];
  const unreadable = failed.filter(key => !key.startsWith('reservations.'));
  const damage: Damage = { reason, where, unreadable, fromBackup };
  return {
    kind: 'corrupt',
    data,
    damage,
    reason: `${reason} at ${where}`,
    dropped: unreadable.filter(key => !fromBackup.includes(key)).length,
  };
}

// The line of a record in hub's own layout, for a person to find it.
function recordPlace(text: string, key: string): string {
  const [section, ...rest] = key.split('.');
  const sectionAt = text.indexOf(`"${section}"`);
  const at = sectionAt < 0 ? -1 : text.indexOf(JSON.stringify(rest.join('.')), sectionAt);
  return at < 0 ? `record ${key}` : `record ${key} (line ${placeOf(text, at).line})`;
}

/**
 * Text of db.json (null when missing) → the store, or what could be recovered from it, record by
 * record, with the records it lost filled in from backup() (the last good copy) when given.
 */
export function decodeStore(text: string | null, backup?: () => StoreData | undefined): Decoded {
  if (text === null || text.trim() === '') return { kind: 'ok', data: emptyStore() };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const place = locateJsonError(text);
    const where = place ? `line ${place.line}, column ${place.column}` : 'its end';
    const pieces = salvageText(text);
    // A damaged file of a newer hub is still that hub's: never rewritten in an older format.
    if (pieces.version !== undefined && pieces.version > STORE_VERSION)
      return { kind: 'newer', version: pieces.version };
    const { data, failed } = salvage(pieces.sections);
    return corrupt(
      data,
      `not valid JSON (${(error as Error).message.split('\n')[0]})`,
      where,
      [...pieces.unreadable, ...failed],
      backup?.(),
      true,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return corrupt(emptyStore(), 'not a JSON object', 'line 1, column 1', [], backup?.(), true);
  }
  const object = raw as Record<string, unknown>;
  if (typeof object.version === 'number' && object.version > STORE_VERSION) {
    return { kind: 'newer', version: object.version };
  }
  const migrated = migrate(object);
  const parsed = StoreDataSchema.safeParse(migrated);
  if (parsed.success) return { kind: 'ok', data: parsed.data };
  const issue = parsed.error.issues[0];
  const { data, failed } = salvage(migrated);
  const path = issue?.path.join('.') ?? '';
  const first = failed[0];
  return corrupt(
    data,
    `${path}: ${issue?.message ?? 'invalid'}`,
    first ? recordPlace(text, first) : `field ${path}`,
    failed,
    backup?.(),
    false,
  );
}
