import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { reapAll } from './processes.js';
import { stopSharedHubIn } from './shared-hub.js';

/** A fresh HUB_HOME for one test; its shared hub is stopped, its recorded processes killed and the folder removed afterwards. */
export async function makeHubHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-test-'));
  await mkdir(`${home}-files`);
  onTestFinished(() => rm(`${home}-files`, { recursive: true, force: true }));
  onTestFinished(async () => {
    // First: the shared hub would start children and write into home while it is removed.
    await stopSharedHubIn(home);
    await reapAll(home);
    // Retried: a writer that was mid-flush (the audit log) may add a file while the folder is removed.
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  });
  return home;
}

/**
 * A temporary folder outside HUB_HOME, removed afterwards: for files a test and its child server
 * both use (a spawn log, events). A sandboxed child never reaches HUB_HOME (docs/sandbox.md).
 */
export async function makeScratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hub-scratch-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A file beside HUB_HOME (in `<home>-files`, made and removed with it) that a test and its child
 * server both use: a sandboxed child never reaches HUB_HOME itself (docs/sandbox.md).
 */
export const sharedFile = (home: string, name: string): string => join(`${home}-files`, name);
