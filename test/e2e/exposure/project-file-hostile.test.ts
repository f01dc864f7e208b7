// Issue 26 item 1: a cloned repository cannot freeze or bloat the shared hub with its .hub.json.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { daemonsOf, sharedHubPid } from '../../helpers/shared-hub.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const ECHO_TOOLS = [{ name: 'pid', inputSchema: { type: 'object' as const, properties: {} } }];
// Well above a shared hub serving a few sessions; far below the gigabytes /dev/zero grew it to.
const RSS_LIMIT_KB = 512 * 1024;

async function repository(): Promise<string> {
  const root = await makeHubHome();
  await mkdir(join(root, '.git'));
  return root;
}

const rssKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

async function callsWork(hub: HubSession): Promise<void> {
  const { tools } = await hub.client.listTools();
  // The file is ignored: every installed server is listed, as with no project file.
  const pid = tools.find(tool => /^echo[._]pid$/.test(tool.name));
  expect(pid, tools.map(tool => tool.name).join(', ')).toBeDefined();
  const result = await hub.call(pid!.name);
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(Number(textOf(result))).toBeGreaterThan(0);
  expect((await hub.call('list_processes')).isError).toBeFalsy();
}

// Failed before: the hub read /dev/zero to the end (5-6 GB in 12 s; this test's watchdog ends it at
// 512 MB), and opened the FIFO for reading, which waits for a writer for ever; either way the
// entries ended it as hung and every client got "hub restarted; call again".
test('a .hub.json that is a symlink to /dev/zero or a FIFO: calls keep working, the hub stays small, one warning each', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS }),
  );
  const zero = await repository();
  await symlink('/dev/zero', join(zero, '.hub.json'));
  const fifo = await repository();
  execFileSync('mkfifo', [join(fifo, '.hub.json')]);

  let peakKb = 0;
  const watchdog = setInterval(() => {
    for (const pid of daemonsOf(home)) {
      const kb = rssKb(pid);
      peakKb = Math.max(peakKb, kb);
      if (kb > RSS_LIMIT_KB) process.kill(pid, 'SIGKILL');
    }
  }, 100);
  // A client in another project, open throughout: its hub must not be restarted under it.
  const bystander = await spawnHub(home, { cwd: await repository(), env: { HUB_EXPOSURE: 'all' } });
  try {
    await callsWork(bystander);
    const hubPid = sharedHubPid(home);
    // Two sessions in each repository: two lookups of the same file, one warning.
    for (const cwd of [zero, fifo, zero, fifo]) {
      const hub = await spawnHub(home, { cwd, env: { HUB_EXPOSURE: 'all' } });
      try {
        await callsWork(hub);
        expect(hub.stderr?.()).not.toMatch(/hub restarted|running in-process/);
      } finally {
        await hub.close();
      }
      await callsWork(bystander);
    }
    expect(sharedHubPid(home)).toBe(hubPid);
    expect(daemonsOf(home)).toEqual([hubPid]);
  } finally {
    clearInterval(watchdog);
    await bystander.close();
  }
  expect(peakKb).toBeGreaterThan(0);
  expect(peakKb).toBeLessThan(RSS_LIMIT_KB);

  const logFile = join(home, 'logs', 'hub.log');
  const warnings = (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
    .split('\n')
    .filter(line => line.includes('Ignoring the project file'));
  const about = (repo: string) => warnings.filter(line => line.includes(`${repo}/.hub.json`));
  expect(about(zero)).toHaveLength(1);
  expect(about(zero)[0]).toMatch(/is a symbolic link to \/dev\/zero, outside its repository/);
  expect(about(fifo)).toHaveLength(1);
  expect(about(fifo)[0]).toMatch(/is a FIFO, not a regular file/);
  expect(warnings).toHaveLength(2);
});
