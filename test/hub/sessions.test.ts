// One core, many sessions (issue 15): real children shared by sessions, each session with its
// own Server, naming, cwd and client; a child's request to the person goes to the session whose
// call caused it. Sessions are connected the way the shared hub connects an entry: connectLines
// over a line stream (fast path included), with the SDK Client on the other end.
import { readFileSync } from 'node:fs';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ClientCapabilities,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { connectLines, createHubCore, createSession, type Hub, type HubCore } from '../../src/hub.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome, makeScratchDir } from '../helpers/home.js';
import { fixture, textOf } from '../helpers/hub.js';
import { commandRecord, putRecords, until } from '../proxy/harness.js';

const ASKER = fixture('child-asker.mjs');
const CHANGING = fixture('changing-server.mjs');

/** The client end of a line stream into connectLines (what an entry's socket carries). */
class LinesClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();
  constructor(
    private readonly toHub: PassThrough,
    private readonly fromHub: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromHub.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toHub.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.toHub.end();
    this.onclose?.();
  }
}

function coreFor(home: string): HubCore {
  const config = loadConfig({ HUB_HOME: home });
  const core = createHubCore({ config, log: silentLogger, store: openStore(config.paths) });
  onTestFinished(() => core.close());
  return core;
}

interface Attached {
  readonly hub: Hub;
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

async function attach(
  core: HubCore,
  options: {
    env?: Record<string, string>;
    cwd?: string;
    capabilities?: ClientCapabilities;
    prepare?: (client: Client) => void;
  } = {},
): Promise<Attached> {
  const hub = createSession(core, {
    transport: 'socket',
    ...(options.env && { env: options.env }),
    ...(options.cwd && { cwd: options.cwd }),
  });
  const toHub = new PassThrough();
  const fromHub = new PassThrough();
  await connectLines(hub, toHub, fromHub);
  const client = new Client({ name: 'sessions-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.prepare?.(client);
  await client.connect(new LinesClientTransport(toHub, fromHub));
  onTestFinished(() => hub.close());
  return {
    hub,
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

const starts = (file: string): string[] => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('one core, many sessions', () => {
  test('two sessions share one child process, and its tools/list_changed reaches both', async () => {
    const home = await makeHubHome();
    const core = coreFor(home);
    const startsFile = join(await makeScratchDir(), 'starts.txt');
    await putRecords(core.store, commandRecord('changing', [CHANGING], { env: { CHANGING_STARTS: startsFile } }));
    await core.servers.start('changing');
    const a = await attach(core);
    const b = await attach(core);
    let changedA = 0;
    let changedB = 0;
    a.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changedA += 1));
    b.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changedB += 1));
    expect(JSON.parse(textOf(await a.call('changing_add', { a: 1, b: 2 })))).toBeDefined();
    expect(textOf(await b.call('changing_add', { a: 2, b: 3 }))).toContain('5');
    expect(starts(startsFile)).toHaveLength(1);
    expect(core.sessions().map(session => session.transport)).toEqual(['socket', 'socket']);
    expect(core.sessions()[0]?.client?.name).toBe('sessions-test');
    const before = [changedA, changedB];
    await a.call('changing_relist');
    await until(() => changedA > before[0]! && changedB > before[1]!);
    expect(starts(startsFile)).toHaveLength(1);
  });

  test("a child's elicitation during A's call reaches A only; concurrent calls from two sessions are refused clearly", async () => {
    const home = await makeHubHome();
    const core = coreFor(home);
    await putRecords(core.store, commandRecord('asker', [ASKER]));
    await core.servers.start('asker');
    const asked: string[] = [];
    let duringA: Promise<unknown> | undefined;
    const other: { b?: Attached } = {};
    const a = await attach(core, {
      capabilities: { elicitation: {} },
      prepare: client =>
        client.setRequestHandler(ElicitRequestSchema, async request => {
          asked.push(`A ${request.params.message}`);
          // B calls the same shared child while A's call waits on its person: two sessions in flight.
          if (request.params.message.endsWith('both')) {
            duringA = other.b!.call('asker_ask', { message: 'from B' }).then(
              result => textOf(result),
              (error: Error) => error.message,
            );
            await duringA;
          }
          return { action: 'accept', content: { ok: true } };
        }),
    });
    const b = (other.b = await attach(core, {
      capabilities: { elicitation: {} },
      prepare: client =>
        client.setRequestHandler(ElicitRequestSchema, request => {
          asked.push(`B ${request.params.message}`);
          return { action: 'decline' };
        }),
    }));
    expect(JSON.parse(textOf(await a.call('asker_ask', { message: 'from A' })))).toMatchObject({ action: 'accept' });
    expect(JSON.parse(textOf(await b.call('asker_ask', { message: 'from B' })))).toMatchObject({ action: 'decline' });
    expect(asked).toEqual(['A [server asker] from A', 'B [server asker] from B']);

    asked.length = 0;
    expect(JSON.parse(textOf(await a.call('asker_ask', { message: 'both' })))).toMatchObject({ action: 'accept' });
    expect(await duringA).toMatch(/2 client sessions had calls in progress.*per-session/s);
    expect(asked).toEqual(['A [server asker] both']);
  });

  test('naming modes of two sessions coexist; start_process resolves a relative cwd against the session cwd', async () => {
    const home = await makeHubHome();
    const core = coreFor(home);
    await putRecords(core.store, commandRecord('changing', [CHANGING]));
    await core.servers.start('changing');
    const project = await realpath(home);
    await mkdir(join(project, 'sub'));
    const dotted = await attach(core, { env: { HUB_TOOL_NAMES: 'dotted' }, cwd: project });
    const underscore = await attach(core, { env: { HUB_TOOL_NAMES: 'underscore' } });
    const names = async (session: Attached) => (await session.client.listTools()).tools.map(tool => tool.name);
    expect(await names(dotted)).toEqual(expect.arrayContaining(['changing.add', 'registry.list', 'start_process']));
    expect(await names(underscore)).toEqual(expect.arrayContaining(['changing_add', 'registry_list']));
    expect(await names(underscore)).not.toContain('changing.add');
    const started = await dotted.call('start_process', {
      command: process.execPath,
      args: ['-e', 'console.log("cwd=" + process.cwd()); setTimeout(() => {}, 60000)'],
      cwd: 'sub',
      wait_for: { pattern: 'cwd=' },
    });
    expect(textOf(started)).toContain(`cwd=${join(project, 'sub')}`);
  });

  test('closing one session leaves the other working; core.close() leaves no child process', async () => {
    const home = await makeHubHome();
    const core = coreFor(home);
    const startsFile = join(await makeScratchDir(), 'starts.txt');
    await putRecords(core.store, commandRecord('changing', [CHANGING], { env: { CHANGING_STARTS: startsFile } }));
    await core.servers.start('changing');
    const a = await attach(core);
    const b = await attach(core);
    await a.call('changing_add', { a: 1, b: 1 });
    await a.hub.close();
    expect(core.sessionCount()).toBe(1);
    expect(textOf(await b.call('changing_add', { a: 20, b: 22 }))).toContain('42');
    const [pid] = starts(startsFile).map(Number);
    expect(starts(startsFile)).toHaveLength(1);
    expect(alive(pid!)).toBe(true);
    await core.close();
    expect(core.sessionCount()).toBe(0);
    await until(() => !alive(pid!));
  });

  test('a per-session server gives each session its own child, closed with its session', async () => {
    const home = await makeHubHome();
    const core = coreFor(home);
    const startsFile = join(await makeScratchDir(), 'starts.txt');
    await putRecords(
      core.store,
      commandRecord('changing', [CHANGING], {
        env: { CHANGING_STARTS: startsFile },
        settings: { perSession: true },
      }),
    );
    // Started once outside any session to learn its tools, then stopped: sessions start their own.
    await core.servers.start('changing');
    await core.servers.stop('changing');
    const a = await attach(core);
    const b = await attach(core);
    await a.call('changing_add', { a: 1, b: 1 });
    await b.call('changing_add', { a: 1, b: 1 });
    await a.call('changing_add', { a: 1, b: 1 });
    const pids = starts(startsFile).map(Number).slice(1);
    expect(pids).toHaveLength(2);
    await a.hub.close();
    await until(() => pids.filter(alive).length === 1);
    expect(textOf(await b.call('changing_add', { a: 40, b: 2 }))).toContain('42');
    expect(starts(startsFile)).toHaveLength(3);
    await core.close();
    await until(() => pids.every(pid => !alive(pid)));
  });
});
