// The one /proc reader of the dashboard's charts (issue 31 item 5): a real process tree under a
// parent (as under a keeper), its CPU time growing while it spins and its memory as the kernel
// counts it.
import { spawn } from 'node:child_process';
import { expect, test, vi } from 'vitest';
import { processUsage } from '../../src/process/proc-usage.js';

test('CPU time and resident memory of a process tree under its parent', async () => {
  // The parent stands for the keeper: only its descendants are counted.
  const parent = spawn(
    process.execPath,
    [
      '-e',
      "require('child_process').spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'inherit' }); setInterval(() => {}, 1000)",
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    const first = await vi.waitFor(
      () => {
        // Right after the fork the child may not have its own memory yet (or have exec'd node).
        const usage = processUsage(parent.pid!);
        expect(usage?.rssBytes).toBeGreaterThan(1024 * 1024);
        return usage!;
      },
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(processUsage(parent.pid!)!.cpuMs).toBeGreaterThan(first.cpuMs + 50), {
      timeout: 20_000,
    });
  } finally {
    // Its own group (detached): the spinning grandchild goes with it.
    process.kill(-parent.pid!, 'SIGKILL');
  }
  expect(processUsage(2 ** 22 + 1)).toBeUndefined();
});
