// The built hub (dist/server.js) over stdio with real processes: a dev server outlives a
// SIGKILLed hub and is controlled by the next one; an exit while no hub runs is still recorded;
// four hubs share one HUB_HOME; env values never leak into results, logs, the CLI or db.json.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { groupMembers, killHubAndShared } from '../../helpers/processes.js';

const run = promisify(execFile);

type View = {
  id: string;
  pid: number;
  status: string;
  exitCode?: number | null;
  endedAt?: string;
  logFile: string;
  name?: string;
};

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

describe('processes over stdio', () => {
  test('a dev server is ready by port, answers HTTP, survives a SIGKILLed hub, and the next hub kills it', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    const port = ok(await hub.call('get_free_port', {})).port as number;
    const started = ok(
      await hub.call('start_process', {
        command: process.execPath,
        args: [fixture('process-http-server.mjs'), String(port)],
        name: 'dev',
        wait_for: { port },
      }),
    );
    expect(started).toMatchObject({ ready: true, reason: 'port', process: { status: 'running', ports: [port] } });
    const view = started.process as View;
    expect(await (await fetch(`http://127.0.0.1:${port}/first`)).text()).toMatch(/^hello from/);

    const tail = await hub.call('get_process_logs', { id: 'dev' });
    expect(textOf(tail)).toContain(`listening on ${port}`);
    await fetch(`http://127.0.0.1:${port}/second`);
    let followed = '';
    let cursor = ok(tail).next_cursor as number;
    await vi.waitFor(
      async () => {
        const since = await hub.call('get_process_logs', { id: 'dev', cursor });
        cursor = ok(since).next_cursor as number;
        followed += `${textOf(since)}\n`;
        expect(followed).toContain('request /second');
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(followed).not.toContain('listening on');
    expect(followed).not.toContain('request /first');

    // The shared hub too: it runs start_process, so "no hub runs" means neither is left.
    await killHubAndShared(hub, home);
    expect(await (await fetch(`http://127.0.0.1:${port}/after-hub`)).text()).toMatch(/^hello from/);
    const size = statSync(view.logFile).size;
    await vi.waitFor(() => expect(statSync(view.logFile).size).toBeGreaterThan(size), { timeout: 5_000, interval: 50 });

    const next = await spawnHub(home);
    try {
      const listed = ok(await next.call('list_processes', {})).processes as View[];
      expect(listed).toEqual([expect.objectContaining({ id: view.id, status: 'running', name: 'dev' })]);
      const killed = ok(await next.call('kill_process', { id: 'dev' }));
      expect(killed).toMatchObject({ already_ended: false, process: { status: 'killed' } });
      expect(groupMembers(view.pid)).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      await next.close();
    }
  });

  test('an exit with code 3 while no hub runs is reported exited with exitCode 3 by the next hub', async () => {
    const home = await makeHubHome();
    const flag = join(home, 'exit-now');
    const hub = await spawnHub(home);
    const view = ok(
      await hub.call('start_process', {
        command: process.execPath,
        args: [fixture('process-exit-code.mjs'), '3', flag],
        wait_for: { pattern: 'waiting' },
      }),
    ).process as View;
    // The shared hub too: it runs start_process, so "no hub runs" means neither is left.
    await killHubAndShared(hub, home);
    writeFileSync(flag, '');
    await vi.waitFor(() => expect(groupMembers(view.pid)).toEqual([]), { timeout: 10_000, interval: 50 });
    // No hub saw it end: the store still says running, the keeper's exit file has the code.
    const stored = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as { processes: Record<string, View> };
    expect(stored.processes[view.id]?.status).toBe('running');
    expect(readFileSync(join(home, 'logs', 'processes', `${view.id}.exit`), 'utf8')).toMatch(/^3 \d+\n$/);

    const next = await spawnHub(home);
    try {
      const [listed] = ok(await next.call('list_processes', {})).processes as View[];
      expect(listed).toMatchObject({ id: view.id, status: 'exited', exitCode: 3 });
      expect(Date.parse(listed?.endedAt ?? '')).toBeGreaterThan(0);
    } finally {
      await next.close();
    }
  });

  test('four hubs on one HUB_HOME each start 10 processes at once: all 40 are recorded with distinct ids', async () => {
    const home = await makeHubHome();
    const hubs = await Promise.all([1, 2, 3, 4].map(() => spawnHub(home)));
    try {
      const results = await Promise.all(
        hubs.flatMap(hub =>
          Array.from({ length: 10 }, () => hub.call('start_process', { command: 'sleep', args: ['60'] })),
        ),
      );
      const ids = results.map(result => (ok(result).process as View).id);
      expect(new Set(ids).size).toBe(40);
      const listed = ok(await hubs[0]!.call('list_processes', {})) as { processes: View[]; running: number };
      expect(listed.running).toBe(40);
      expect(new Set(listed.processes.map(view => view.id))).toEqual(new Set(ids));
      const stored = JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as { processes: Record<string, View> };
      expect(Object.keys(stored.processes).sort()).toEqual([...ids].sort());
    } finally {
      await Promise.all(hubs.map(hub => hub.close()));
    }
    // Each start takes the store lock twice (record first, then its keeper): 40 at once on a
    // loaded 2-core machine can pass the default 30 s.
  }, 90_000);

  test('env values never appear in results, hub.log, the CLI or db.json', async () => {
    const home = await makeHubHome();
    const secret = `s3cret-${randomUUID()}`;
    const hub = await spawnHub(home, { env: { HUB_LOG_LEVEL: 'debug' } });
    const texts: string[] = [];
    const record = async (result: Promise<CallToolResult>) => {
      const value = await result;
      texts.push(JSON.stringify(value));
      return value;
    };
    let view: View;
    try {
      view = ok(
        await record(
          hub.call('start_process', {
            command: 'sleep',
            args: ['60'],
            name: 'sec',
            env: { API_TOKEN: secret, OTHER: secret },
          }),
        ),
      ).process as View;
      await record(
        hub.call('start_process', { command: 'sleep', args: ['1'], cwd: '/no/such', env: { API_TOKEN: secret } }),
      );
      await record(hub.call('start_process', { command: 'no-such-program-xyz', args: [], env: { API_TOKEN: secret } }));
      await record(hub.call('start_process', { command: 'sleep', args: ['1'], env: { 'BAD KEY': secret } }));
      await record(hub.call('list_processes', {}));
      await record(hub.call('get_process_logs', { id: 'sec' }));
      // The secret did reach the process (so its absence elsewhere means something).
      const child = groupMembers(view.pid).find(pid => pid !== view.pid) ?? 0;
      expect(readFileSync(`/proc/${child}/environ`, 'utf8')).toContain(secret);
      expect(
        ok(await record(hub.call('start_process', { command: 'echo', args: ['visible'], name: 'other' }))),
      ).toBeDefined();
    } finally {
      await hub.close();
    }
    const cli = async (...args: string[]) =>
      (await run(process.execPath, [SERVER_JS, ...args], { env: { ...process.env, HUB_HOME: home } })).stdout;
    texts.push(
      await cli('ps'),
      await cli('ps', '--json'),
      await cli('logs', 'sec'),
      await cli('kill', 'sec', '--json'),
      await cli('kill', 'sec'),
    );
    expect(texts.join('\n')).toContain('API_TOKEN');
    for (const text of texts) expect(text).not.toContain(secret);
    expect(readFileSync(join(home, 'logs', 'hub.log'), 'utf8')).not.toContain(secret);
    expect(readFileSync(join(home, 'db.json'), 'utf8')).not.toContain(secret);
    expect(existsSync(view.logFile)).toBe(true);
  });
});
