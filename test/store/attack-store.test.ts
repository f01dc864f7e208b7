// Store attacks from the adversarial run (issues 11.4, 11.7, 10.16), kept as tests: a truncated
// and a garbled db.json, one bad record, the warning every tool result and CLI command carries
// until a person removes the quarantined file, a read-only and a full HUB_HOME, and a store lock
// holder that is stopped with SIGSTOP.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { storeHealth } from '../../src/store/health.js';
import type { ProcessRecord, ServerRecord } from '../../src/store/schema.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture, SERVER_JS, spawnHub, startHubInProcess, textOf } from '../helpers/hub.js';
import { canMount, mountSmallFs } from '../helpers/limited-fs.js';

const processRecord = (id: string): ProcessRecord => ({
  id,
  command: 'sleep 1000',
  cwd: '/tmp',
  envKeys: [],
  tags: [],
  ports: [],
  // A pid that is not ours to reap: the records are only data here.
  pid: 1,
  status: 'exited',
  startedAt: '2026-01-01T00:00:00.000Z',
  logFile: `/tmp/${id}.log`,
});

const serverRecord = (name: string): ServerRecord => ({
  name,
  command: 'node',
  args: ['server.js'],
  env: {},
  mode: 'command',
  installedAt: '2026-01-01T00:00:00.000Z',
  order: 1,
  autoStart: false,
});

// Three processes and one server, written one change at a time as hub would.
async function filledHome(): Promise<string> {
  const home = await makeHubHome();
  const store = openStore(hubPaths(home));
  await store.update(data => void (data.servers.memory = serverRecord('memory')));
  for (const id of ['aaaa0001', 'aaaa0002', 'aaaa0003'])
    await store.update(data => void (data.processes[id] = processRecord(id)));
  await store.update(data => void (data.reservations['4100'] = 1));
  return home;
}

const quarantined = (home: string) => readdirSync(home).filter(name => name.startsWith('db.json.corrupt-'));

function runCli(home: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [SERVER_JS, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HUB_HOME: home },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('a damaged db.json', () => {
  test('truncated mid-record: every record comes back (the cut ones from db.json.bak), the file is quarantined verbatim', async () => {
    const home = await filledHome();
    const db = hubPaths(home).db;
    const full = readFileSync(db, 'utf8');
    const cut = full.slice(0, full.indexOf('"aaaa0002"') + 40);
    writeFileSync(db, cut);
    const data = await openStore(hubPaths(home)).read();
    expect(Object.keys(data.processes).sort()).toEqual(['aaaa0001', 'aaaa0002', 'aaaa0003']);
    expect(data.servers.memory).toMatchObject({ name: 'memory' });
    expect(quarantined(home)).toHaveLength(1);
    expect(readFileSync(join(home, quarantined(home)[0]!), 'utf8')).toBe(cut);
    const { warning, damaged } = storeHealth(hubPaths(home), data);
    expect(damaged).toBe(true);
    expect(warning).toMatch(/db\.json was damaged \(not valid JSON.*at line \d+, column \d+\)/);
    expect(warning).not.toContain('Not recovered');
  });

  test('a typo inside one record: the others are read from the file, that one from the backup', async () => {
    const home = await filledHome();
    const db = hubPaths(home).db;
    const full = readFileSync(db, 'utf8');
    const at = full.indexOf('"command"', full.indexOf('"aaaa0002": {'));
    writeFileSync(db, `${full.slice(0, at)}"command" = ${full.slice(at + '"command":'.length)}`);
    // The backup is one write behind: make the record in it differ, to see where each came from.
    const backup = JSON.parse(readFileSync(`${db}.bak`, 'utf8'));
    backup.processes.aaaa0001.command = 'from backup';
    writeFileSync(`${db}.bak`, JSON.stringify(backup, null, 2));
    const data = await openStore(hubPaths(home)).update(current => current);
    expect(Object.keys(data.processes).sort()).toEqual(['aaaa0001', 'aaaa0002', 'aaaa0003']);
    expect(data.processes.aaaa0001?.command).toBe('sleep 1000');
    expect(data.servers.memory).toBeDefined();
  });

  test('one record that breaks the schema and is in no backup is named as not recovered', async () => {
    const home = await makeHubHome();
    const db = hubPaths(home).db;
    const text = JSON.stringify(
      {
        version: 1,
        servers: {},
        processes: { good0001: processRecord('good0001'), bad00002: { ...processRecord('bad00002'), pid: 'x' } },
        reservations: {},
      },
      null,
      2,
    );
    writeFileSync(db, text);
    const data = await openStore(hubPaths(home)).read();
    expect(Object.keys(data.processes)).toEqual(['good0001']);
    const { warning } = storeHealth(hubPaths(home), data);
    expect(warning).toMatch(/processes\.bad00002\.pid.*record processes\.bad00002 \(line \d+\)/);
    expect(warning).toContain('Not recovered: processes.bad00002.');
  });

  test('every tool result carries store_warning until the quarantined file is removed', async () => {
    const home = await filledHome();
    writeFileSync(hubPaths(home).db, '{"version": 1, "servers": {tru');
    const hub = await startHubInProcess(home);
    onTestFinished(() => hub.close());
    // The SDK client validates structuredContent against the listed output schema.
    const listed: CallToolResult = await hub.call('list_processes', {});
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { total: number }).total).toBe(3);
    expect((listed.structuredContent as { store_warning?: string }).store_warning).toMatch(
      /db\.json was damaged.*line 1, column 28.*delete db\.json\.corrupt-/,
    );
    expect(listed.content.map(block => (block.type === 'text' ? block.text : '')).join('\n')).toContain(
      '[hub warning]',
    );
    const failed = await hub.call('get_process_logs', { id: 'nope' });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain('[hub warning]');
    for (const name of quarantined(home)) rmSync(join(home, name));
    const after = await hub.call('list_processes', {});
    expect(after.structuredContent).not.toHaveProperty('store_warning');
    expect(textOf(after)).not.toContain('warning');
  });

  test('hub-mcp ps on a db.json with a typo says what and where and exits non-zero, until acknowledged', async () => {
    const home = await filledHome();
    const db = hubPaths(home).db;
    writeFileSync(db, readFileSync(db, 'utf8').replace('"version": 1,', '"version": 1;'));
    const first = runCli(home, 'ps');
    expect(first.code).toBe(1);
    expect(first.out).toContain('aaaa0003');
    expect(first.err).toMatch(new RegExp(`${db} was damaged \\(not valid JSON.*at line 2, column 15\\)`));
    expect(runCli(home, 'ps').code).toBe(1);
    for (const name of quarantined(home)) rmSync(join(home, name));
    expect(runCli(home, 'ps')).toMatchObject({ code: 0, err: '' });
  });
});

describe.skipIf(!canMount)('a HUB_HOME that cannot be written', () => {
  test('read-only: hub answers reads over stdio and says why writes fail; hub-mcp ps works', async () => {
    const fs = mountSmallFs(1024);
    const home = join(fs.dir, 'home');
    const store = openStore(hubPaths(home));
    await store.update(
      data => void (data.processes.aaaa0001 = { ...processRecord('aaaa0001'), status: 'running', pid: 999_999_9 }),
    );
    fs.readOnly();
    const hub = await spawnHub(home);
    onTestFinished(() => hub.close());
    const listed = await hub.call('list_processes', {});
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({
      total: 1,
      store_warning: expect.stringMatching(/cannot be written \(EROFS\): reads work/),
    });
    const port = await hub.call('get_free_port', {});
    expect(port.isError).toBe(true);
    expect(textOf(port)).toMatch(/^STORE_UNWRITABLE: hub cannot write its store .*EROFS.*reading works as before/);
    const ps = runCli(home, 'ps');
    expect(ps.code).toBe(0);
    expect(ps.out).toContain('aaaa0001');
    expect(ps.err).toContain('cannot be written (EROFS)');
  });

  test('full: updates fail with STORE_UNWRITABLE, leave no lock or temp files, and reads still work', async () => {
    const fs = mountSmallFs(64);
    const home = join(fs.dir, 'home');
    const store = openStore(hubPaths(home));
    await store.update(data => void (data.processes.aaaa0001 = processRecord('aaaa0001')));
    const before = readdirSync(home).sort();
    // Fill the disk, then try to add a big record many times.
    writeFileSync(join(fs.dir, 'filler'), Buffer.alloc(0));
    try {
      for (;;) writeFileSync(join(fs.dir, 'filler'), Buffer.alloc(4096), { flag: 'a' });
    } catch {
      // full
    }
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const error = await store
        .update(
          data =>
            void (data.processes[`big${attempt}`] = { ...processRecord(`big${attempt}`), command: 'x'.repeat(8192) }),
        )
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'STORE_UNWRITABLE' });
    }
    expect(readdirSync(home).sort()).toEqual(before);
    expect(Object.keys((await store.read()).processes)).toEqual(['aaaa0001']);
  });
});

describe('a stopped store lock holder', () => {
  test('waiters get a clear STORE_BUSY naming the stopped pid and the fix, instead of hanging', async () => {
    const home = await makeHubHome();
    const holder = spawn(process.execPath, [fixture('store-hold-lock.mjs'), home], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    onTestFinished(() => void holder.kill('SIGKILL'));
    const lines = createInterface({ input: holder.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('held');
    holder.kill('SIGSTOP');
    const store = openStore(hubPaths(home));
    const error = await store.update(data => void (data.reservations.mine = 1)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'STORE_BUSY' });
    expect(String((error as Error).message)).toContain(`hub process ${holder.pid}, which is stopped`);
    expect(String((error as Error).message)).toContain(`kill -CONT ${holder.pid}`);
    // Reads do not wait for the lock.
    expect(await store.read()).toMatchObject({ processes: {} });
    // Continued, it finishes its change; then ours goes through and nothing is lost.
    holder.kill('SIGCONT');
    holder.stdin.write('go\n');
    expect((await lines.next()).value).toBe('done');
    await store.update(data => void (data.reservations.mine = 1));
    expect((await store.read()).reservations).toEqual({ holder: 1, mine: 1 });
    expect(readdirSync(home).filter(name => name.includes('.lock')).length).toBe(0);
    expect(existsSync(`${hubPaths(home).db}.lock`)).toBe(false);
  });
});

describe('db.json cut short at any byte', () => {
  test(`no record is lost wherever the cut falls (${process.env.HUB_SOAK === '1' ? 'every byte' : '25 random cuts'})`, async () => {
    const home = await filledHome();
    const paths = hubPaths(home);
    const full = readFileSync(paths.db, 'utf8');
    const backup = readFileSync(`${paths.db}.bak`, 'utf8');
    const cuts =
      process.env.HUB_SOAK === '1'
        ? Array.from({ length: full.length - 1 }, (_, n) => n + 1)
        : Array.from({ length: 25 }, () => 1 + Math.floor(Math.random() * (full.length - 1)));
    for (const cut of cuts) {
      writeFileSync(paths.db, full.slice(0, cut));
      writeFileSync(`${paths.db}.bak`, backup);
      const data = await openStore(paths).read();
      expect(Object.keys(data.processes).sort(), `cut at byte ${cut}`).toEqual(['aaaa0001', 'aaaa0002', 'aaaa0003']);
      expect(Object.keys(data.servers), `cut at byte ${cut}`).toEqual(['memory']);
      for (const name of quarantined(home)) rmSync(join(home, name));
    }
  }, 600_000);
});
