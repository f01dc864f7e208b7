import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempHome } from '../lib/cleanup.mjs';
import { callTool, spawnHub, toolNames } from '../lib/mcp.mjs';
import { commandLine, descendants, rssKb } from '../lib/proc.mjs';
import { median, percentile, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// 9. Interactive processes: what hub keeps per tty process (the keeper shell plus the
// util-linux `script` holding the terminal), and send_input → echoed output round trips against
// a direct pipe to the same program in the same run.

const TTYS = 5;
const mb = kb => round(kb / 1024, 1);

async function keeperMemory(hub) {
  const ids = [];
  const rows = [];
  for (let i = 0; i < TTYS; i++) {
    const started = await callTool(hub.client, 'start_process', { command: 'cat', args: [], tty: true });
    const view = started.structuredContent.process;
    ids.push(view.id);
    // The keeper (group leader) and the terminal holder (script); the command (cat) apart.
    let holder;
    let command = [];
    for (let tries = 0; tries < 200 && command.length === 0; tries++) {
      await sleep(10);
      holder = descendants(view.pid).find(pid => commandLine(pid).startsWith('script '));
      command = holder === undefined ? [] : descendants(holder).filter(pid => commandLine(pid) === 'cat');
    }
    rows.push({
      keeperKb: rssKb(view.pid),
      holderKb: holder === undefined ? 0 : rssKb(holder),
      commandKb: command.reduce((sum, pid) => sum + rssKb(pid), 0),
    });
  }
  return { ids, rows };
}

async function sendRoundTrips(hub, id, runs) {
  const times = [];
  for (let i = 0; i < runs + 3; i++) {
    const marker = `m${i}x${Date.now() % 100000}`;
    const start = performance.now();
    const result = await callTool(hub.client, 'send_input', { id, text: marker, keys: ['Enter'], wait_for: marker });
    const ms = performance.now() - start;
    if (result.structuredContent.reason !== 'pattern')
      throw new Error(`send_input: ${result.structuredContent.reason}`);
    if (i >= 3) times.push(ms);
  }
  return times;
}

// send_input with nothing to send and idle_ms 0: the MCP call through hub alone, so the echo's
// round trip above it is what the input and the log cost.
async function emptyCalls(hub, id, runs) {
  const times = [];
  for (let i = 0; i < runs + 3; i++) {
    const start = performance.now();
    await callTool(hub.client, 'send_input', { id, idle_ms: 0 });
    if (i >= 3) times.push(performance.now() - start);
  }
  return times;
}

// The same line to `cat` over a pipe this process holds: the floor any input channel can reach.
async function directRoundTrips(runs) {
  const child = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
  const times = [];
  try {
    for (let i = 0; i < runs + 3; i++) {
      const marker = `m${i}\n`;
      const start = performance.now();
      await new Promise(resolve => {
        let seen = '';
        const onData = chunk => {
          seen += chunk;
          if (seen.includes(marker)) {
            child.stdout.off('data', onData);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stdin.write(marker);
      });
      if (i >= 3) times.push(performance.now() - start);
    }
  } finally {
    child.kill();
  }
  return times;
}

export async function interactiveSection({ quick, smoke, log }) {
  const runs = smoke ? 3 : quick ? 10 : 40;
  const home = await tempHome();
  const hub = await spawnHub(home);
  try {
    if (!(await toolNames(hub.client)).includes('send_input')) {
      const note = 'hub has no send_input yet';
      return {
        section: { status: 'unavailable', reason: note },
        rows: [row('interactive', 'send_input', null, undefined, undefined, note)],
      };
    }
    log(`  starting ${TTYS} tty processes (cat)`);
    const memory = await keeperMemory(hub);
    const keeperKb = median(memory.rows.map(r => r.keeperKb + r.holderKb));
    log(`  ${runs} send_input round trips (tty, then pipe) and ${runs} direct pipe round trips`);
    const tty = await sendRoundTrips(hub, memory.ids[0], runs);
    const pipeStarted = await callTool(hub.client, 'start_process', { command: 'cat', args: [] });
    const pipe = await sendRoundTrips(hub, pipeStarted.structuredContent.process.id, runs);
    const empty = await emptyCalls(hub, pipeStarted.structuredContent.process.id, runs);
    const direct = await directRoundTrips(runs);
    for (const id of [...memory.ids, pipeStarted.structuredContent.process.id])
      await callTool(hub.client, 'kill_process', { id, remove: true });
    const directP50 = round(median(direct), 3);
    return {
      section: {
        status: 'ok',
        keepers: memory.rows,
        sendTtyMs: { p50: round(median(tty), 2), p95: round(percentile(tty, 95), 2) },
        sendPipeMs: { p50: round(median(pipe), 2), p95: round(percentile(pipe, 95), 2) },
        directPipeMs: { p50: directP50, p95: round(percentile(direct, 95), 3) },
        emptyCallMs: { p50: round(median(empty), 2), p95: round(percentile(empty, 95), 2) },
      },
      rows: [
        row(
          'interactive',
          'keeper + terminal holder RSS per tty process (MB)',
          mb(keeperKb),
          { label: 'the command (cat)', value: mb(median(memory.rows.map(r => r.commandKb))) },
          { text: '< 5 MB', below: 5 },
        ),
        row('interactive', 'send_input → echo p50, tty (ms)', round(median(tty), 2), {
          label: 'direct pipe to cat',
          value: directP50,
        }),
        row('interactive', 'send_input → echo p50, stdin pipe (ms)', round(median(pipe), 2), {
          label: 'direct pipe to cat',
          value: directP50,
        }),
        row('interactive', 'send_input → echo p50, stdin pipe (ms)', round(median(pipe), 2), {
          label: 'send_input with no input',
          value: round(median(empty), 2),
        }),
      ],
    };
  } finally {
    await hub.close();
  }
}
