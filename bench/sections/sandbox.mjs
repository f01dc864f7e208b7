import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { hubPaths } from '../../dist/core/paths.js';
import { ChildProcessTransport } from '../../dist/proxy/child/transport.js';
import { ServerLog } from '../../dist/proxy/child/server-log.js';
import { noClient } from '../../dist/proxy/sessions/client-side.js';
import { launchFor } from '../../dist/proxy/sandbox/launch.js';
import { tempHome } from '../lib/cleanup.mjs';
import { EVERYTHING_JS } from '../lib/mcp.mjs';
import { row } from '../lib/report.mjs';
import { median, ratio, round, since } from '../lib/stats.mjs';

// Issue 29 item 9: a child's start to its tools/list, sandboxed (bubblewrap, the command line hub
// builds for it) against the same child unsandboxed, interleaved in the same run; and a call's
// round trip both ways (the same pipe: the sandbox adds nothing per call). Sandboxed twice: with
// the default network (its own namespace and slirp4netns, started before the child runs) and with
// network "host" (bwrap alone), so the network relay's own cost shows. Each child is spawned by
// hub's own transport, as hub spawns it.

const MINIMAL_JS = fileURLToPath(new URL('../minimal-server.mjs', import.meta.url));
const PLAN = { quick: { rounds: 6, calls: 100 }, full: { rounds: 20, calls: 400 } };
const GOAL_MS = 30;

async function startToList(launch, logFile) {
  const start = performance.now();
  const transport = new ChildProcessTransport({ ...launch, log: new ServerLog(logFile) });
  const client = new Client({ name: 'hub-bench', version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${error.message}; its log: ${readFileSync(logFile, 'utf8').slice(-600)}`);
  }
  const { tools } = await client.listTools();
  const took = since(start);
  return { connection: { client, close: () => client.close() }, took, tools: tools.length };
}

async function callRoundTrips(connection, tool, calls) {
  const samples = [];
  for (let i = 0; i < calls; i += 1) {
    const start = performance.now();
    await connection.client.callTool({ name: tool.name, arguments: tool.args });
    samples.push(since(start));
  }
  return median(samples);
}

export async function sandboxSection({ quick, log }) {
  const plan = quick ? PLAN.quick : PLAN.full;
  // hub's transport waits on unref'd timers while a child ends (hub's own loop is always alive);
  // this keeps the bench's loop alive meanwhile.
  const alive = setInterval(() => undefined, 1000);
  try {
    return await measure(plan, log);
  } finally {
    clearInterval(alive);
  }
}

async function measure(plan, log) {
  const home = await tempHome();
  const servers = [
    { name: 'minimal', args: [MINIMAL_JS], tool: { name: 'ping', args: {} } },
    { name: 'everything', args: [EVERYTHING_JS, 'stdio'], tool: { name: 'echo', args: { message: 'x' } } },
  ];
  const rows = [];
  const section = {};
  for (const server of servers) {
    const record = {
      name: server.name,
      command: process.execPath,
      args: server.args,
      env: {},
      mode: 'command',
      installedAt: new Date().toISOString(),
      order: 1,
      autoStart: false,
    };
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
    const launchOf = network =>
      launchFor({
        record: { ...record, ...(network && { settings: { sandbox: { network } } }) },
        env,
        sandbox: { paths: hubPaths(home), enabled: () => true },
        client: noClient,
      });
    const launches = {
      plain: { command: process.execPath, args: server.args, env },
      sandboxed: await launchOf(undefined),
      bwrapOnly: await launchOf('host'),
    };
    const launch = launches.sandboxed;
    const times = { plain: [], sandboxed: [], bwrapOnly: [] };
    const calls = { plain: [], sandboxed: [], bwrapOnly: [] };
    const kinds = Object.keys(launches);
    for (let round = 0; round < plan.rounds; round += 1) {
      // Interleaved, and the order rotated each round, so drift and warm caches fall on each.
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
      for (const kind of order) {
        const run = await startToList(launches[kind], join(home, `${server.name}-${kind}.log`));
        times[kind].push(run.took);
        if (round === plan.rounds - 1) calls[kind].push(await callRoundTrips(run.connection, server.tool, plan.calls));
        await run.connection.close();
      }
    }
    const plain = median(times.plain);
    const sandboxed = median(times.sandboxed);
    const bwrapOnly = median(times.bwrapOnly);
    const added = sandboxed - plain;
    section[server.name] = {
      startToListMs: {
        plain: round(plain, 1),
        sandboxed: round(sandboxed, 1),
        bwrapOnly: round(bwrapOnly, 1),
        addedMs: round(added, 1),
        ratio: round(ratio(sandboxed, plain), 2),
      },
      callMs: { plain: round(calls.plain[0], 3), sandboxed: round(calls.sandboxed[0], 3) },
      sandbox: launch.note.split('\n')[0],
    };
    log(
      `  ${server.name}: start→tools/list ${round(plain, 1)} ms unsandboxed, ${round(sandboxed, 1)} ms sandboxed (+${round(added, 1)} ms, ×${round(ratio(sandboxed, plain), 2)}), ${round(bwrapOnly, 1)} ms with network host (no relay); call ${round(calls.plain[0], 3)} vs ${round(calls.sandboxed[0], 3)} ms`,
    );
    rows.push(
      row(
        'sandbox',
        `${server.name}: start→tools/list added by the sandbox (ms)`,
        round(added, 1),
        { label: 'goal', value: GOAL_MS },
        undefined,
        `${round(sandboxed, 1)} ms sandboxed vs ${round(plain, 1)} ms unsandboxed, median of ${plan.rounds}; goal at most +${GOAL_MS} ms`,
      ),
      row(
        'sandbox',
        `${server.name}: call round trip sandboxed (ms)`,
        round(calls.sandboxed[0], 3),
        { label: 'unsandboxed', value: round(calls.plain[0], 3) },
        undefined,
        'the same pipe: the sandbox adds nothing per call',
      ),
    );
  }
  return { section: { status: 'ok', ...section }, rows };
}
