// kill_process must stop the process even when the store cannot be written (full disk): it
// signals first and records after, and says so in a warning. The write failure is real: the
// killing process runs under RLIMIT_FSIZE, so the store's atomic write fails with EFBIG.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { describe, expect, onTestFinished, test } from 'vitest';
import { hubPaths } from '../../../src/core/paths.js';
import { createProcessManager } from '../../../src/process/manager.js';
import { silentLogger } from '../../../src/core/logger.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture } from '../../helpers/hub.js';
import { groupMembers } from '../../helpers/processes.js';

const never = new AbortController().signal;

describe('kill_process with an unwritable store', () => {
  test('the process is stopped, the result carries a warning, and the next listing records it as killed', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const manager = createProcessManager({
      paths,
      store: openStore(paths),
      log: silentLogger,
      maxRunning: 64,
      logCapBytes: 1024 * 1024,
      logReadBytes: 64 * 1024,
    });
    onTestFinished(() => manager.close());
    // Tags make db.json larger than the 512 bytes the killer may write.
    const tags = Array.from({ length: 8 }, (_, index) => `tag-${index}-${'x'.repeat(50)}`);
    const { record } = await manager.start({ command: 'sleep', args: ['300'], tags }, undefined, never);
    expect(statSync(paths.db).size).toBeGreaterThan(1024);
    const script = `trap '' XFSZ; ulimit -f 1; exec "$0" "$@"`;
    const output = execFileSync(
      '/bin/sh',
      ['-c', script, process.execPath, fixture('process-kill-fsize.mjs'), home, record.id],
      { encoding: 'utf8' },
    );
    const outcome = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
      ok: boolean;
      status?: string;
      warning?: string;
      error?: string;
    };
    expect(outcome).toMatchObject({ ok: true, status: 'killed' });
    expect(outcome.warning).toMatch(/could not be written/);
    expect(groupMembers(record.pid)).toEqual([]);
    expect(await manager.get(record.id)).toMatchObject({ status: 'killed' });
  });
});
