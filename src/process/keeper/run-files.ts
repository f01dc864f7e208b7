// Files a keeper and hubs share beside a process's log: stdin FIFO, restart request, count, env.
import { readFileSync, writeFileSync } from 'node:fs';
import type { HubPaths } from '../../core/paths.js';

// Files next to a process's log and exit file that the keeper and hubs share (mode 0600 in the
// 0700 logs dir): the stdin FIFO, a restart request, the restart count, the env for a restart.
const base = (paths: HubPaths, id: string): string => paths.processExitFile(id).replace(/\.exit$/, '');

export const inputFifo = (paths: HubPaths, id: string): string => `${base(paths, id)}.in`;
export const restartRequestFile = (paths: HubPaths, id: string): string => `${base(paths, id)}.restart`;
export const restartsFile = (paths: HubPaths, id: string): string => `${base(paths, id)}.restarts`;
export const envFile = (paths: HubPaths, id: string): string => `${base(paths, id)}.env.json`;
/** What the keeper runs, for a hub that finds it without /proc (keeper/spec.ts). */
export const keeperSpecFile = (paths: HubPaths, id: string): string => `${base(paths, id)}.keeper.json`;

/** The keeper's restart count, when it has written one. */
export function readRestarts(paths: HubPaths, id: string): number | undefined {
  try {
    const count = Number(readFileSync(restartsFile(paths, id), 'utf8').trim());
    return Number.isInteger(count) && count > 0 ? count : undefined;
  } catch {
    return undefined;
  }
}

export const runFiles = (paths: HubPaths, id: string): string[] =>
  [inputFifo, restartRequestFile, restartsFile, envFile, keeperSpecFile].map(file => file(paths, id));

// The env values given at start, for restart_process on an ended process (the store keeps only
// the keys): 0600, removed with the record.
export function writeEnvFile(paths: HubPaths, id: string, env: Readonly<Record<string, string>>): void {
  writeFileSync(envFile(paths, id), JSON.stringify(env), { mode: 0o600 });
}

export function readEnvFile(paths: HubPaths, id: string): Record<string, string> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(envFile(paths, id), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    return Object.fromEntries(Object.entries(parsed).filter(([, value]) => typeof value === 'string')) as Record<
      string,
      string
    >;
  } catch {
    return undefined;
  }
}
