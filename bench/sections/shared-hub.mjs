import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempHome } from '../lib/cleanup.mjs';
import { addServers, everythingRecord } from '../lib/home.mjs';
import { callTool, spawnEverything, spawnHub, spawnRelayedHub } from '../lib/mcp.mjs';
import { cpuNs, descendants, rssKb } from '../lib/proc.mjs';
import { median, percentile, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// Issue 15: five stdio sessions using the same three child servers, each entry attached to one
// shared hub against each session running its own hub in-process (HUB_SHARED=off), in one run;
// then the added latency and CPU of a proxied call through entry → shared hub against the
// in-process path, and against an in-process hub behind a bare Node pipe relay (the same one
// extra process hop with nothing in it: the floor for any entry that copies bytes), rounds
// interleaved with the child called directly.

const SESSIONS = 5;
const SERVERS = ['e1', 'e2', 'e3'];
const mb = kb => round(kb / 1024, 1);

const hubRecordPid = home => {
  try {
    return JSON.parse(readFileSync(join(home, 'hub.json'), 'utf8')).pid;
  } catch {
    return undefined;
  }
};

async function seededHome(tools) {
  const home = await tempHome();
  await addServers(
    home,
    SERVERS.map((name, i) => everythingRecord(name, i + 1, tools)),
  );
  return home;
}

/** Every process of the picture: the entries (or hubs), the shared hub, all their descendants. */
function tree(roots) {
  const pids = new Set();
  for (const root of roots) {
    if (root === undefined) continue;
    pids.add(root);
    for (const pid of descendants(root)) pids.add(pid);
  }
  return [...pids];
}

async function footprint(home, env, settleMs) {
  const sessions = [];
  for (let i = 0; i < SESSIONS; i++) sessions.push(await spawnHub(home, { HUB_EXPOSURE: 'all', ...env }));
  for (const session of sessions)
    for (const name of SERVERS) await callTool(session.client, `${name}.echo`, { message: 'x' });
  await sleep(settleMs);
  const pids = tree([...sessions.map(s => s.pid), hubRecordPid(home)]);
  const rss = pids.reduce((sum, pid) => sum + rssKb(pid), 0);
  for (const session of sessions) await session.close();
  return { processes: pids.length, rssKb: rss };
}

// A bare node's RSS: node -e 0's, kept alive long enough to read (it loads nothing more).
async function bareNodeRssKb() {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)'], { stdio: 'ignore' });
  await sleep(500);
  const kb = rssKb(child.pid);
  child.kill('SIGKILL');
  await once(child, 'exit');
  return kb;
}

async function timedRound(client, name, calls) {
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await client.callTool({ name, arguments: { message: 'x' } });
    samples.push(performance.now() - start);
  }
  return samples;
}

export async function sharedHubSection({ quick, smoke, log, shared }) {
  const direct = await spawnEverything();
  const tools = shared.everythingTools ?? (await direct.client.listTools()).tools;
  const settleMs = quick ? 300 : 2_000;

  const inHome = await seededHome(tools);
  const inProcess = await footprint(inHome, { HUB_SHARED: 'off' }, settleMs);
  log(`  in-process: ${inProcess.processes} processes, ${mb(inProcess.rssKb)} MB`);
  const sharedHome = await seededHome(tools);
  const sharedRun = await footprint(sharedHome, { HUB_SHARED: 'on' }, settleMs);
  log(`  shared: ${sharedRun.processes} processes, ${mb(sharedRun.rssKb)} MB`);

  // Latency and CPU per call: one session each, the same child server.
  const inHub = await spawnHub(inHome, { HUB_EXPOSURE: 'all', HUB_SHARED: 'off' });
  const sharedHub = await spawnHub(sharedHome, { HUB_EXPOSURE: 'all', HUB_SHARED: 'on' });
  const relayed = await spawnRelayedHub(inHome, { HUB_EXPOSURE: 'all' });
  await callTool(relayed.client, 'e1.echo', { message: 'warm' });
  await callTool(inHub.client, 'e1.echo', { message: 'warm' });
  await callTool(sharedHub.client, 'e1.echo', { message: 'warm' });
  const daemon = hubRecordPid(sharedHome);
  // The entry after its cold start, a hand-off and a few calls: a relay of lines (issue 27 item 10).
  const entryRss = [];
  const bareRss = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    entryRss.push(rssKb(sharedHub.pid));
    bareRss.push(await bareNodeRssKb());
  }
  const targets = [
    { key: 'direct', client: direct.client, name: 'echo', pids: [] },
    { key: 'inProcess', client: inHub.client, name: 'e1.echo', pids: [inHub.pid] },
    { key: 'shared', client: sharedHub.client, name: 'e1.echo', pids: [sharedHub.pid, daemon] },
    // The relay and the hub it started (its only child).
    { key: 'relayed', client: relayed.client, name: 'e1.echo', pids: [relayed.pid, descendants(relayed.pid)[0]] },
  ];
  const rounds = smoke ? 1 : quick ? 3 : 30;
  const calls = smoke ? 10 : quick ? 30 : 100;
  for (const target of targets) await timedRound(target.client, target.name, smoke ? 10 : quick ? 50 : 500); // warm-up
  const p50 = { direct: [], inProcess: [], shared: [], relayed: [] };
  const cpu = { inProcess: [], shared: [], relayed: [] };
  const entryCpu = [];
  const daemonCpu = [];
  const relayCpu = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const before = target.pids.map(pid => cpuNs(pid));
      const samples = await timedRound(target.client, target.name, calls);
      const spent = target.pids.map((pid, i) => (cpuNs(pid) - before[i]) / calls / 1000);
      p50[target.key].push(percentile(samples, 50));
      if (target.key !== 'direct') cpu[target.key].push(spent.reduce((a, b) => a + b, 0));
      // Where the shared path's CPU goes: the entry's pipe, and the shared hub.
      if (target.key === 'shared') {
        entryCpu.push(spent[0]);
        daemonCpu.push(spent[1]);
      }
      if (target.key === 'relayed') relayCpu.push(spent[0]);
    }
  }
  await inHub.close();
  await sharedHub.close();
  await relayed.close();
  await direct.close();
  const added = key => median(p50[key].map((value, i) => value - p50.direct[i]));
  const addedIn = added('inProcess');
  const addedShared = added('shared');
  const cpuIn = median(cpu.inProcess);
  const cpuShared = median(cpu.shared);
  const addedRelayed = added('relayed');
  const cpuRelayed = median(cpu.relayed);

  const section = {
    status: 'ok',
    sessions: SESSIONS,
    servers: SERVERS.length,
    inProcess,
    shared: sharedRun,
    p50Ms: Object.fromEntries(Object.entries(p50).map(([k, v]) => [k, round(median(v), 3)])),
    addedP50Ms: { inProcess: round(addedIn, 3), shared: round(addedShared, 3), relayed: round(addedRelayed, 3) },
    cpuUsPerCall: {
      inProcess: round(cpuIn, 1),
      shared: round(cpuShared, 1),
      relayed: round(cpuRelayed, 1),
      relayOnly: round(median(relayCpu), 1),
      sharedEntry: round(median(entryCpu), 1),
      sharedHub: round(median(daemonCpu), 1),
    },
    entryRssMb: mb(median(entryRss)),
    bareNodeRssMb: mb(median(bareRss)),
    rounds,
    callsPerRound: calls,
  };
  const rows = [
    row(
      'sharedHub',
      `${SESSIONS} sessions × ${SERVERS.length} servers: total RSS shared (MB)`,
      mb(sharedRun.rssKb),
      { label: 'in-process', value: mb(inProcess.rssKb) },
      { text: '≤ 0.4× in-process', ratioMax: 0.4 },
    ),
    row('sharedHub', `${SESSIONS} sessions × ${SERVERS.length} servers: processes shared`, sharedRun.processes, {
      label: 'in-process',
      value: inProcess.processes,
    }),
    row(
      'sharedHub',
      'added p50 per proxied call, entry → shared hub (ms)',
      round(addedShared, 3),
      { label: 'in-process hub', value: round(addedIn, 3) },
      { text: '≤ 1.3× in-process', ratioMax: 1.3 },
    ),
    row(
      'sharedHub',
      'CPU per proxied call, entry + shared hub (µs)',
      round(cpuShared, 1),
      { label: 'in-process hub', value: round(cpuIn, 1) },
      { text: '≤ 1.3× in-process', ratioMax: 1.3 },
    ),
    // The same hop with nothing in it: how much of the above is the hop itself.
    row(
      'sharedHub',
      'added p50, entry → shared hub (ms)',
      round(addedShared, 3),
      { label: 'bare pipe relay → in-process hub', value: round(addedRelayed, 3) },
      { text: '≤ 1.15× pipe relay', ratioMax: 1.15 },
    ),
    row(
      'sharedHub',
      'CPU per call, entry + shared hub (µs)',
      round(cpuShared, 1),
      { label: 'bare pipe relay + in-process hub', value: round(cpuRelayed, 1) },
      { text: '≤ 1.15× pipe relay', ratioMax: 1.15 },
    ),
    row('sharedHub', 'CPU per call, the entry alone (µs)', round(median(entryCpu), 1), {
      label: 'the pipe relay alone',
      value: round(median(relayCpu), 1),
    }),
    row('sharedHub', 'entry RSS after its first calls (MB)', mb(median(entryRss)), {
      label: 'node -e 0',
      value: mb(median(bareRss)),
    }),
  ];
  return { section, rows };
}
