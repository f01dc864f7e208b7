import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { reapAll } from './processes.js';

/** A fresh HUB_HOME for one test; its recorded processes are killed and the folder removed afterwards. */
export async function makeHubHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-test-'));
  onTestFinished(async () => {
    await reapAll(home);
    await rm(home, { recursive: true, force: true });
  });
  return home;
}
