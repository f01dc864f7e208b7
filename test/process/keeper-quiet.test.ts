// Issue 30.3: a managed process is seen in ps as the keeper's short line, not its 2.5 KB script,
// and a restart or kill leaves no "Terminated" of the keeper's shell in the command's log.
import { readFileSync } from 'node:fs';
import { expect, test, vi } from 'vitest';
import { KEEPER_NAME } from '../../src/process/keeper/keeper.js';
import { makeHubHome } from '../helpers/home.js';
import { managerIn } from '../helpers/processes.js';

const never = new AbortController().signal;
const argvOf = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);

test('the keeper shows a short line in ps; restarts and a kill add only the restart markers to the log', async () => {
  const { manager } = managerIn(await makeHubHome());
  const program = await manager.start({ command: 'sleep', args: ['300'], name: 'program' }, undefined, never);
  const line = await manager.start({ command: 'echo up; echo oops >&2; sleep 300', name: 'line' }, undefined, never);
  for (const { record } of [program, line]) {
    const argv = argvOf(record.pid);
    expect(argv[3]).toBe(KEEPER_NAME);
    expect(argv.join(' ').length).toBeLessThan(600);
    expect(argv.join(' ')).not.toContain('capcheck');
  }
  await vi.waitFor(() => expect(readFileSync(line.record.logFile, 'utf8')).toContain('oops'), { timeout: 10_000 });
  for (const name of ['program', 'line']) await manager.restart(name, 5_000);
  const oopses = () => readFileSync(line.record.logFile, 'utf8').split('oops').length - 1;
  await vi.waitFor(() => expect(oopses()).toBe(2), { timeout: 10_000 });
  for (const name of ['program', 'line'])
    await manager.kill({ reference: name, signal: 'SIGTERM', graceMs: 5_000, remove: false });
  expect(readFileSync(program.record.logFile, 'utf8')).toBe('[hub: restart 1 (requested) after exit code 143]\n');
  // The command's own stderr still reaches the log.
  expect(readFileSync(line.record.logFile, 'utf8')).toBe(
    'up\noops\n[hub: restart 1 (requested) after exit code 143]\nup\noops\n',
  );
});
