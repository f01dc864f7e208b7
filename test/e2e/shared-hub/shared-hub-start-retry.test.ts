// start_process in flight when the shared hub dies may have started its process already: the
// entry used to fail it with "hub restarted; call again", and the retry started a second copy.
// Now the entry sends the same call to the next hub, which knows it (this entry, this JSON-RPC id)
// and returns the process it started: one copy, and the caller gets its answer.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub } from '../../helpers/hub.js';
import { liveKeepersOf, reapKeepers } from '../../helpers/keepers.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';

interface StoredProcess {
  readonly id: string;
  readonly logFile: string;
}

test('a start_process in flight when the shared hub dies is answered by the next hub, with no second copy', async () => {
  const home = await makeHubHome();
  onTestFinished(() => reapKeepers(home));
  const work = join(home, 'work');
  mkdirSync(work);
  const gate = join(work, 'gate');
  const hub = await spawnHub(home);
  onTestFinished(() => hub.close());
  // It starts at once and is ready only once the test opens the gate: the call is in flight.
  const pending = hub.call('start_process', {
    command: `echo booting; while [ ! -e ${gate} ]; do sleep 0.05; done; echo ready; exec sleep 300`,
    wait_for: { pattern: 'ready', timeout_ms: 60_000 },
  });
  const started = await vi.waitFor(
    () => {
      const db = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as {
        processes: Record<string, StoredProcess>;
      };
      const records = Object.values(db.processes);
      expect(records).toHaveLength(1);
      expect(readFileSync(records[0]!.logFile, 'utf8')).toContain('booting');
      return records[0]!;
    },
    { timeout: 20_000, interval: 50 },
  );
  const oldHub = sharedHubPid(home);
  expect(oldHub).toBeDefined();
  process.kill(oldHub!, 'SIGKILL');
  writeFileSync(gate, '');
  const result: CallToolResult = await pending;
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    process: { id: started.id, status: 'running' },
    ready: true,
    already_started: true,
  });
  expect(sharedHubPid(home)).not.toBe(oldHub);
  const listed = await hub.call('list_processes', {});
  expect((listed.structuredContent as { processes: unknown[] }).processes).toHaveLength(1);
  expect(liveKeepersOf(home).map(keeper => keeper.id)).toEqual([started.id]);
});
