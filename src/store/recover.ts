import { z } from 'zod';
import { ProcessRecordSchema, ServerRecordSchema, STORE_VERSION, StoreSchema, emptyStore, type StoreData } from './schema.js';

export type Decoded =
  | { kind: 'ok'; data: StoreData }
  | { kind: 'corrupt'; data: StoreData; reason: string; dropped: number }
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

// Keeps every record that still parses, so one bad record never costs the others.
function salvage(raw: Record<string, unknown>): { data: StoreData; dropped: number } {
  const data = emptyStore();
  let dropped = 0;
  const pick = <S extends z.ZodType>(source: unknown, schema: S, into: Record<string, z.infer<S>>) => {
    if (!source || typeof source !== 'object') return;
    for (const [key, value] of Object.entries(source)) {
      const parsed = schema.safeParse(value);
      if (parsed.success) into[key] = parsed.data;
      else dropped += 1;
    }
  };
  pick(raw.servers, ServerRecordSchema, data.servers);
  pick(raw.processes, ProcessRecordSchema, data.processes);
  pick(raw.reservations, z.number(), data.reservations);
  return { data, dropped };
}

/** Text of db.json (null when missing) → the store, or what could be recovered from it. */
export function decodeStore(text: string | null): Decoded {
  if (text === null || text.trim() === '') return { kind: 'ok', data: emptyStore() };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', data: emptyStore(), reason: `not valid JSON (${(error as Error).message})`, dropped: 0 };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { kind: 'corrupt', data: emptyStore(), reason: 'not a JSON object', dropped: 0 };
  }
  const object = raw as Record<string, unknown>;
  if (typeof object.version === 'number' && object.version > STORE_VERSION) {
    return { kind: 'newer', version: object.version };
  }
  const migrated = migrate(object);
  const parsed = StoreSchema.safeParse(migrated);
  if (parsed.success) return { kind: 'ok', data: parsed.data };
  const issue = parsed.error.issues[0];
  const { data, dropped } = salvage(migrated);
  return { kind: 'corrupt', data, reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`, dropped };
}
