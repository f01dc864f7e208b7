// kill_process through the built server on a process whose child left its session (`setsid -f`):
// the escapee is found by the HUB_PROCESS_ID it carries and stopped, and the result says so.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { reapKeepers } from '../../helpers/keepers.js';
import { isAlive } from '../../helpers/processes.js';

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

test('a setsid -f child is stopped by kill_process and counted in escaped_members', async () => {
  const home = await makeHubHome();
  onTestFinished(() => reapKeepers(home));
  const hub = await spawnHub(home);
  onTestFinished(() => hub.close());
  const started = await hub.call('start_process', {
    command: `setsid -f sh -c 'echo "daemon $$"; exec sleep 1000'; sleep 300`,
    wait_for: { pattern: 'daemon \\d+', timeout_ms: 30_000 },
  });
  expect(structured(started)).toMatchObject({ ready: true });
  const tail = (structured(started).log_tail as string[]).join('\n');
  const daemon = Number(/daemon (\d+)/.exec(tail)?.[1]);
  expect(daemon).toBeGreaterThan(1);
  onTestFinished(() => {
    if (isAlive(daemon)) process.kill(daemon, 'SIGKILL');
  });
  const id = (structured(started).process as { id: string }).id;
  const killed = await hub.call('kill_process', { id });
  expect(isAlive(daemon)).toBe(false);
  expect(structured(killed)).toMatchObject({ escaped_members: 1, process: { status: 'killed' } });
  expect(structured(killed).warning).toBeUndefined();
  expect(textOf(killed)).toMatch(/stopped 1 process group\(s\) that had left its group/);
});
