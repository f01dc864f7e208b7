// What hub says about the store until a person acts: a damaged db.json kept aside, an unwritable home.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HubPaths } from '../core/paths.js';
import { readIfExists } from './lock/file.js';
import { decodeStore, type Damage } from './recover.js';
import type { StoreData } from './schema.js';

// What every tool result and CLI command says about the store until a person acts: a damaged
// db.json kept aside (db.json.corrupt-<time>, written by store.ts when it recovered) and a
// HUB_HOME that cannot be written. The person acknowledges a damaged file by deleting it (or
// moving it out of HUB_HOME) once they have checked what it lost; nothing else clears it.

// Files already looked at: a quarantined file never changes, and tools ask on every call.
const damageOf = new Map<string, Damage | undefined>();
// A quarantined file bigger than this is reported without reading it again.
const READ_LIMIT_BYTES = 8 * 1024 * 1024;

/** The damaged copies of db.json kept in HUB_HOME, oldest first. */
export function quarantinedFiles(paths: HubPaths): string[] {
  const prefix = `${basename(paths.db)}.corrupt-`;
  let names: string[];
  try {
    names = readdirSync(paths.home);
  } catch {
    return [];
  }
  return names
    .filter(name => name.startsWith(prefix) && /^\d{4}-\d\d-\d\dT[\d-]+Z(?:-\d+)?$/.test(name.slice(prefix.length)))
    .sort()
    .map(name => join(paths.home, name));
}

function damage(file: string): Damage | undefined {
  if (damageOf.has(file)) return damageOf.get(file);
  let found: Damage | undefined;
  try {
    if (statSync(file).size <= READ_LIMIT_BYTES) {
      const decoded = decodeStore(readIfExists(file) ?? null);
      found = decoded.kind === 'corrupt' ? decoded.damage : undefined;
    }
  } catch {
    found = undefined;
  }
  damageOf.set(file, found);
  return found;
}

function describe(file: string, db: string, current: StoreData | undefined): string {
  const found = damage(file);
  const what = found ? ` (${found.reason}, at ${found.where})` : '';
  const present = (key: string) => {
    const [section, ...rest] = key.split('.');
    const records = section === 'servers' ? current?.servers : current?.processes;
    return records !== undefined && rest.join('.') in records;
  };
  const lost = found?.unreadable.filter(key => !present(key)) ?? [];
  const lostText =
    lost.length > 0
      ? ` Not recovered: ${lost.slice(0, 10).join(', ')}${lost.length > 10 ? ` and ${lost.length - 10} more` : ''}.`
      : '';
  return (
    `${db} was damaged${what}; hub recovered what it could, record by record and from ${basename(db)}.bak, and kept the damaged file as ${file}.${lostText}` +
    ` Check list_processes and registry.list (hub-mcp ps, hub-mcp servers), re-create what is missing, then delete ${basename(file)} or move it out of ${file.slice(0, -basename(file).length - 1)} to clear this warning.`
  );
}

function writeProblem(home: string): string | undefined {
  try {
    accessSync(home, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    return `HUB_HOME ${home} cannot be written (${code ?? 'error'}): reads work, but starting or killing processes, reserving ports and installing fail until it is writable.`;
  }
}

export interface StoreHealth {
  /** One warning text for tools and the CLI; undefined when the store is healthy. */
  readonly warning: string | undefined;
  /** A damaged db.json is kept aside: a person must look (the CLI exits non-zero). */
  readonly damaged: boolean;
}

export function storeHealth(paths: HubPaths, current?: StoreData): StoreHealth {
  const files = quarantinedFiles(paths);
  const parts = files.map(file => describe(file, paths.db, current));
  const problem = writeProblem(paths.home);
  if (problem !== undefined) parts.push(problem);
  return { warning: parts.length > 0 ? parts.join(' ') : undefined, damaged: files.length > 0 };
}

/** storeHealth with the store's current records (read only when there is something to say). */
export async function currentStoreHealth(paths: HubPaths, read: () => Promise<StoreData>): Promise<StoreHealth> {
  const first = storeHealth(paths);
  if (!first.damaged) return first;
  return storeHealth(paths, await read().catch(() => undefined));
}
