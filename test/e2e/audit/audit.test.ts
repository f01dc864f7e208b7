// Issue 31 items 1 and 2: every action on the record (docs/audit.md), read back with `hub audit`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { cli, cliStdout } from '../../helpers/cli.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { isAlive } from '../../helpers/processes.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const SERVER_SECRET = 'env-secret-7Hq2-kept-by-hub';
const ARG_SECRET = 'arg-secret-Zp91-given-by-agent';
const INPUT_TEXT = 'typed-text-Lm33-into-process';

const ECHO_TOOLS = ['echo', 'fail'].map(name => ({ name, inputSchema: { type: 'object' as const, properties: {} } }));

type Line = Record<string, unknown> & { kind: string; t: string };

const auditJson = async (home: string, ...filters: string[]): Promise<Line[]> =>
  (await cliStdout(home, 'audit', '--json', ...filters))
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line) as Line);

test('a line of each kind is read back through hub-mcp audit --json, with who did it and no secret value', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { env: { ECHO_API_TOKEN: SERVER_SECRET }, tools: ECHO_TOOLS }),
  );
  const hub = await spawnHub(home, { clientName: 'audit-client', capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  hub.client.setRequestHandler(ElicitRequestSchema, request => {
    asked.push(request.params.message);
    return { action: 'accept', content: { approve: true } };
  });
  try {
    // A proxied call whose arguments carry a secret by name, and the server's secret by value.
    const echoed = await hub.call('echo_echo', { text: `about ${SERVER_SECRET}`, apiKey: ARG_SECRET });
    expect(echoed.isError, textOf(echoed)).toBeFalsy();
    expect((await hub.call('echo_fail')).isError).toBe(true);
    // Install (asked through elicitation), configure, uninstall: the agent's, the answer the person's.
    const installed = await hub.call('registry_install', { command: process.execPath, args: [ECHO], name: 'echo2' });
    expect(installed.isError, textOf(installed)).toBeFalsy();
    expect(asked).toHaveLength(1);
    const configured = await hub.call('registry_configure', { server: 'echo2', env: { OTHER_TOKEN: 'x' } });
    expect(configured.isError, textOf(configured)).toBeFalsy();
    expect((await hub.call('registry_uninstall', { name: 'echo2' })).isError).toBeFalsy();
    // Process actions: start, input (keys and length, not the text), restart, remove.
    const started = await hub.call('start_process', { command: 'cat', name: 'audited-cat' });
    expect(started.isError, textOf(started)).toBeFalsy();
    const id = (started.structuredContent as { process: { id: string } }).process.id;
    const sent = await hub.call('send_input', { id, text: INPUT_TEXT, keys: ['Enter'], idle_ms: 0 });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect((await hub.call('restart_process', { id })).isError).toBeFalsy();
    // The person's own command: by cli.
    expect((await cli(home, 'kill', id, '--remove')).code).toBe(0);

    let lines: Line[] = [];
    await vi.waitFor(
      async () => {
        lines = await auditJson(home);
        expect(lines.filter(line => line.kind === 'process').map(line => line.action)).toEqual([
          'start',
          'input',
          'restart',
          'remove',
        ]);
        expect(lines.filter(line => line.kind === 'call' && line.tool === 'restart_process')).toHaveLength(1);
      },
      { timeout: 20_000, interval: 200 },
    );
    const call = lines.find(line => line.kind === 'call' && line.server === 'echo' && line.tool === 'echo')!;
    expect(call).toMatchObject({
      by: 'agent',
      client: 'audit-client',
      outcome: 'ok',
      args: { text: 'about ***', apiKey: '***' },
    });
    expect(call.session).toMatch(/^\d+\.s\d+$/);
    expect(call.ms).toBeTypeOf('number');
    expect(call.bytes).toBeGreaterThan(0);
    expect(lines.find(line => line.kind === 'call' && line.tool === 'fail')).toMatchObject({
      outcome: 'error',
      code: 'TOOL_ERROR',
    });
    expect(lines.find(line => line.kind === 'install')).toMatchObject({ server: 'echo2', by: 'agent', outcome: 'ok' });
    expect(lines.find(line => line.kind === 'decision')).toMatchObject({
      server: 'echo2',
      answer: 'approved',
      by: 'elicitation',
      question: expect.stringContaining('Register the command'),
    });
    expect(lines.find(line => line.kind === 'configure')).toMatchObject({
      server: 'echo2',
      changed: ['env.OTHER_TOKEN'],
      by: 'agent',
    });
    expect(lines.find(line => line.kind === 'uninstall')).toMatchObject({ server: 'echo2', outcome: 'ok' });
    const processLines = lines.filter(line => line.kind === 'process');
    expect(processLines[0]).toMatchObject({ process: id, name: 'audited-cat', command: 'cat', by: 'agent' });
    expect(processLines[0]!.cwd).toBeTypeOf('string');
    expect(processLines[1]).toMatchObject({ input: { keys: ['Enter'], length: INPUT_TEXT.length }, by: 'agent' });
    expect(processLines[3]).toMatchObject({ action: 'remove', by: 'cli', outcome: 'ok' });

    // The filters: by server, tool, process, decisions, and a time span.
    expect((await auditJson(home, '--server', 'echo')).every(line => line.server === 'echo')).toBe(true);
    expect(await auditJson(home, '--tool', 'echo.fail')).toHaveLength(1);
    expect((await auditJson(home, '--process', 'audited-cat')).map(line => line.action)).toEqual([
      'start',
      'input',
      'restart',
      'remove',
    ]);
    expect((await auditJson(home, '--decisions')).map(line => line.kind)).toEqual(['decision']);
    expect(await auditJson(home, '--until', '1d', '--since', '2d')).toEqual([]);
    expect((await auditJson(home, '--session', String(call.session))).length).toBeGreaterThan(5);
    const bad = await cli(home, 'audit', '--since', 'yesterday-ish');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--since "yesterday-ish" is not a time/);
    expect(await cliStdout(home, 'audit', '--kind', 'process')).toMatch(/restart/);

    // No secret value anywhere in the log, which is the person's alone.
    const dir = join(home, 'audit');
    for (const name of readdirSync(dir).filter(file => file.endsWith('.jsonl'))) {
      const text = readFileSync(join(dir, name), 'utf8');
      for (const secret of [SERVER_SECRET, ARG_SECRET, INPUT_TEXT]) expect(text).not.toContain(secret);
      expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    }
  } finally {
    await hub.close();
  }
}, 120_000);

test('four hubs × 500 calls on one HUB_HOME give 2,000 whole lines', async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS }),
  );
  // Four in-process hubs (no shared hub): four processes appending to one file at once.
  const hubs = await Promise.all(
    Array.from({ length: 4 }, (_, n) => spawnHub(home, { clientName: `writer-${n}`, env: { HUB_SHARED: 'off' } })),
  );
  const pids = hubs.map(hub => hub.pid!);
  try {
    await Promise.all(
      hubs.map(async (hub, n) => {
        for (let batch = 0; batch < 20; batch += 1)
          await Promise.all(
            Array.from({ length: 25 }, (_, i) =>
              hub.call('echo_echo', { text: `hub ${n} call ${batch * 25 + i} `.padEnd(150, 'x') }),
            ),
          );
      }),
    );
  } finally {
    await Promise.all(hubs.map(hub => hub.close()));
  }
  // Each hub flushes what it holds as it exits.
  await vi.waitFor(() => expect(pids.filter(pid => isAlive(pid))).toEqual([]), { timeout: 20_000, interval: 100 });
  const text = readFileSync(join(home, 'audit', 'audit.jsonl'), 'utf8');
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const calls = lines.map(line => JSON.parse(line) as Line).filter(line => line.kind === 'call');
  expect(calls).toHaveLength(2_000);
  for (let n = 0; n < 4; n += 1) {
    const own = calls.filter(line => line.client === `writer-${n}`);
    expect(own).toHaveLength(500);
    const seen = new Set(own.map(line => String((line.args as { text: string }).text).split(' ')[3]));
    expect(seen.size).toBe(500);
  }
}, 180_000);

test('hub-mcp audit -f --json prints each new line as it is written, filtered', async () => {
  const home = await makeHubHome();
  const follower = spawn(process.execPath, [SERVER_JS, 'audit', '-f', '--json', '--kind', 'process'], {
    env: { ...process.env, HUB_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  follower.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  try {
    expect((await cli(home, 'start', '--name', 'followed', '--', 'sleep 30')).code).toBe(0);
    expect((await cli(home, 'kill', 'followed', '--remove')).code).toBe(0);
    await vi.waitFor(
      () =>
        expect(
          out
            .split('\n')
            .filter(Boolean)
            .map(line => (JSON.parse(line) as Line).action),
        ).toEqual(['start', 'remove']),
      { timeout: 15_000, interval: 100 },
    );
  } finally {
    follower.kill('SIGINT');
    await once(follower, 'exit');
  }
}, 60_000);
