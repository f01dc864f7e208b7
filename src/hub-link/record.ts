// hub.json: who the shared hub is (pid, identity, version, socket), checked without zod.
import { readFileSync, rmSync } from 'node:fs';
import { bootId, isRecordedProcess, readProcessIdentity } from '../core/process-identity.js';
import { writeFileAtomic } from '../core/write-atomic.js';

// $HUB_HOME/hub.json: who the shared hub is. A pid alone could be recycled: the start ticks and
// boot id (core/process-identity.ts) say whether that pid is still this hub.
export interface HubRecord {
  readonly pid: number;
  readonly startTicks: number;
  readonly bootId: string;
  readonly version: string;
  readonly socket: string;
  readonly startedAt: string;
}

// Checked by hand, not with zod: every stdio entry reads this file, and zod alone is ~15 MB of
// each entry's memory (bench sharedHub). hub writes the file itself (writeHubRecord).
const isCount = (value: unknown, least: number): boolean => Number.isInteger(value) && (value as number) >= least;
const isText = (value: unknown, least = 0): value is string => typeof value === 'string' && value.length >= least;

export function isHubRecord(value: unknown): value is HubRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    isCount(record.pid, 1) &&
    isCount(record.startTicks, 0) &&
    isText(record.bootId) &&
    isText(record.version, 1) &&
    isText(record.socket, 1) &&
    isText(record.startedAt)
  );
}

export function readHubRecord(file: string): HubRecord | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isHubRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The record of this process as the shared hub listening on socket. */
export function myHubRecord(version: string, socket: string): HubRecord {
  return {
    pid: process.pid,
    startTicks: readProcessIdentity(process.pid)?.startTicks ?? 0,
    bootId: bootId(),
    version,
    socket,
    startedAt: new Date().toISOString(),
  };
}

export const writeHubRecord = (file: string, record: HubRecord): void =>
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);

/** True when the recorded process is alive and is the one recorded (not a recycled pid). */
export const isLiveHub = (record: HubRecord): boolean => isRecordedProcess(record.pid, record);

/** Removes hub.json if it still names this process (a newer hub may have written its own). */
export function removeMyHubRecord(file: string): void {
  if (readHubRecord(file)?.pid === process.pid) rmSync(file, { force: true });
}

/** -1, 0 or 1: a and b as dotted numbers (0.1.10 > 0.1.9); a pre-release tail is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-+]/)[0]!
      .split('.')
      .map(n => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
