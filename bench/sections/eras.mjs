import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';
import { onCleanup, tempHome } from '../lib/cleanup.mjs';
import { addServers } from '../lib/home.mjs';
import { connectStdio, HUB_JS } from '../lib/mcp.mjs';
import { descendants } from '../lib/proc.mjs';
import { row } from '../lib/report.mjs';
import { measureEcho } from './proxy.mjs';

// Both protocol eras: a 2026-07-28 client (the SDK's v2 Client, pinned) calls echo on a child
// built with the v2 server package, directly and through hub; and a 2025 client (the 1.x Client)
// calls the same child through hub, which speaks 2026-07-28 to it. Interleaved as in `proxy`.

const MODERN_CHILD = fileURLToPath(new URL('../../test/fixtures/modern-child.mjs', import.meta.url));
const PLAN = {
  quick: { warmupMs: 500, rounds: 4, block: 60, tputRounds: 2, tputBlock: 200 },
  // --smoke (the test suite's check that every section runs): the least that still runs each step.
  smoke: { warmupMs: 50, rounds: 2, block: 10, tputRounds: 1, tputBlock: 32 },
  full: { warmupMs: 2000, rounds: 20, block: 100, tputRounds: 8, tputBlock: 400 },
};
const ARGS = { text: 'hello from the eras bench' };

async function modernConnection(args, env = {}) {
  const transport = new V2StdioTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new V2Client(
    { name: 'eras-bench', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  const close = () => client.close().catch(() => undefined);
  onCleanup(close);
  return { client, pid: transport.pid, close };
}

function echoTarget(name, connection, tool, tree) {
  return {
    name,
    connection,
    pid: connection.pid,
    call: () => connection.client.callTool({ name: tool, arguments: ARGS }),
    pids: () => (tree ? [connection.pid, ...descendants(connection.pid)] : [connection.pid]),
  };
}

export async function erasSection({ quick, smoke, log }) {
  const plan = smoke ? PLAN.smoke : quick ? PLAN.quick : PLAN.full;
  const home = await tempHome();
  const now = new Date().toISOString();
  const tools = [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];
  await addServers(home, [
    {
      name: 'kid',
      command: process.execPath,
      args: [MODERN_CHILD],
      env: {},
      mode: 'command',
      installedAt: now,
      order: 1,
      autoStart: false,
      tools,
      toolsUpdatedAt: now,
    },
  ]);
  const direct = echoTarget('direct', await modernConnection([MODERN_CHILD]), 'echo', false);
  const modernHub = echoTarget('hub', await modernConnection([HUB_JS], { HUB_HOME: home }), 'kid_echo', true);
  const legacy = echoTarget(
    'hub-2025',
    await connectStdio({ args: [HUB_JS], env: { HUB_HOME: home } }),
    'kid_echo',
    true,
  );
  const targets = [direct, modernHub, legacy];
  log(`  ${targets.map(t => t.name).join(', ')}: ${plan.rounds * plan.block} sequential calls each`);
  const results = await measureEcho(targets, plan);
  await Promise.all(targets.map(t => t.connection.close()));
  const d = results.direct;
  const line = r =>
    `${r.latencyUs.p50} / ${r.paired.addedP50Us} / ${r.paired.addedCpuUs} / ${r.paired.throughputRatio}`;
  const rows = [
    row(
      'eras',
      '2026 client → v2 child direct: echo p50 (µs), server CPU per call (µs)',
      `${d.latencyUs.p50} / ${d.cpuUsPerCall}`,
      {
        label: 'reference',
        value: null,
      },
    ),
    row(
      'eras',
      '2026 client → hub → v2 child: p50 / added p50 / added CPU (µs) / throughput ÷ direct',
      line(results.hub),
      {
        label: 'reference',
        value: null,
      },
    ),
    row(
      'eras',
      '2025 client → hub → v2 child: p50 / added p50 / added CPU (µs) / throughput ÷ direct',
      line(results['hub-2025']),
      { label: 'reference', value: null },
    ),
  ];
  return { section: { status: 'ok', plan, results }, rows };
}
