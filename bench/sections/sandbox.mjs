import { fileURLToPath } from 'node:url';
import { hubPaths } from '../../dist/core/paths.js';
import { noClient } from '../../dist/proxy/sessions/client-side.js';
import { launchFor } from '../../dist/proxy/sandbox/launch.js';
import { tempHome } from '../lib/cleanup.mjs';
import { connectStdio, EVERYTHING_JS } from '../lib/mcp.mjs';
import { row } from '../lib/report.mjs';
import { median, round, since } from '../lib/stats.mjs';

// Issue 29 item 9: a child's start to its tools/list, sandboxed (bubblewrap, the command line hub
// builds for it) against the same child unsandboxed, interleaved in the same run; and a call's
// round trip both ways (the same pipe: the sandbox adds nothing per call).

const MINIMAL_JS = fileURLToPath(new URL('../minimal-server.mjs', import.meta.url));
const PLAN = { quick: { rounds: 6, calls: 100 }, full: { rounds: 20, calls: 400 } };
const GOAL_MS = 30;

async function startToList(command, args, env) {
  const start = performance.now();
  const connection = await connectStdio({ command, args, env });
  const { tools } = await connection.client.listTools();
  const took = since(start);
  return { connection, took, tools: tools.length };
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
    const launch = await launchFor({
      record,
      env,
      sandbox: { paths: hubPaths(home), enabled: () => true },
      client: noClient,
    });
    const times = { plain: [], sandboxed: [] };
    const calls = { plain: [], sandboxed: [] };
    for (let round = 0; round < plan.rounds; round += 1) {
      // Interleaved, and the order swapped each round, so drift and warm caches fall on both.
      const order = round % 2 === 0 ? ['plain', 'sandboxed'] : ['sandboxed', 'plain'];
      for (const kind of order) {
        const run =
          kind === 'plain'
            ? await startToList(process.execPath, server.args, {})
            : await startToList(launch.command, launch.args, launch.env);
        times[kind].push(run.took);
        if (round === plan.rounds - 1) calls[kind].push(await callRoundTrips(run.connection, server.tool, plan.calls));
        await run.connection.close();
      }
    }
    const plain = median(times.plain);
    const sandboxed = median(times.sandboxed);
    const added = sandboxed - plain;
    section[server.name] = {
      startToListMs: { plain: round(plain, 1), sandboxed: round(sandboxed, 1), addedMs: round(added, 1) },
      callMs: { plain: round(calls.plain[0], 3), sandboxed: round(calls.sandboxed[0], 3) },
      sandbox: launch.note.split('\n')[0],
    };
    log(
      `  ${server.name}: start→tools/list ${round(plain, 1)} ms unsandboxed, ${round(sandboxed, 1)} ms sandboxed (+${round(added, 1)} ms); call ${round(calls.plain[0], 3)} vs ${round(calls.sandboxed[0], 3)} ms`,
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
