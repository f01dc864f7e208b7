// The recorded processes as the cold-start lane lists their logs, read without zod.
import { hubPaths } from '../core/paths.js';
import { readJson } from './cold-json.js';
import { isObject, isOptionalString, isString, isStringArray, type Check } from './cold-read.js';

// The recorded processes as the cold-start lane lists their logs (hub's own resources), read
// without zod like cold-read.ts: anything unusual returns undefined and the full hub answers.

const isInteger = (value: unknown): boolean => Number.isInteger(value);
const isIntegerArray = (value: unknown): boolean => Array.isArray(value) && value.every(isInteger);

// The fields schema.ts's ProcessRecordSchema requires, and the optional ones hub's resources list
// reads: a record that fails these would be dropped by the store, so the full hub answers then.
const COLD_PROCESS_REQUIRED: Readonly<Record<string, Check>> = {
  id: isString,
  command: isString,
  cwd: isString,
  envKeys: isStringArray,
  tags: isStringArray,
  ports: isIntegerArray,
  pid: isInteger,
  status: isString,
  startedAt: isString,
  logFile: isString,
};

export interface LeanProcess {
  readonly id: string;
  readonly name?: string | undefined;
  readonly command: string;
  readonly args?: string[] | undefined;
  readonly startedAt: string;
}

/** The recorded processes (what hub's own resources list logs of), or undefined when the full hub must read the store. */
export function leanProcesses(home: string, storeVersion: number): LeanProcess[] | undefined {
  const db = readJson(hubPaths(home).db);
  if (db === null) return [];
  if (!isObject(db) || db.version !== storeVersion || !isObject(db.processes)) return undefined;
  const processes: LeanProcess[] = [];
  for (const record of Object.values(db.processes)) {
    if (!isObject(record) || !Object.entries(COLD_PROCESS_REQUIRED).every(([field, check]) => check(record[field])))
      return undefined;
    if (!isOptionalString(record.name) || (record.args !== undefined && !isStringArray(record.args))) return undefined;
    processes.push({
      id: record.id as string,
      name: record.name as string | undefined,
      command: record.command as string,
      args: record.args as string[] | undefined,
      startedAt: record.startedAt as string,
    });
  }
  return processes;
}
