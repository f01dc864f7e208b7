import { tempHome } from '../lib/cleanup.mjs';
import { addProcesses, addServers, everythingRecord, exitedRecord } from '../lib/home.mjs';
import { firstTurn, stopSharedHub } from '../lib/first-turn.mjs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { connectStdio, spawnEverything, spawnHub } from '../lib/mcp.mjs';
import { descendants } from '../lib/proc.mjs';
import { median, round, roundOrder } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// 2. Cold start: spawn hub with 20 installed servers (tools cached in tools/<name>.json) → initialize →
// tools/list, with no child server started; against spawning one server-everything directly.
// Issue 27 item 5: the same over raw pipes (what hub does, without the SDK client's own work on
// the answer) against node -e 0, and Claude Code's first turn (initialize, then the three lists at
// once) with a recorded process and no shared hub running, each run starting from a cold one.

const SERVERS = 20;
const MINIMAL_JS = fileURLToPath(new URL('../minimal-server.mjs', import.meta.url));

// Floors: node itself starting and exiting, and the smallest SDK server answering tools/list.
async function bareNode() {
  const start = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return { ms: performance.now() - start, tools: 0, children: 0 };
}
const spawnMinimal = () => connectStdio({ args: [MINIMAL_JS] });

async function timeToTools(spawn) {
  const start = performance.now();
  const connection = await spawn();
  const { tools } = await connection.client.listTools();
  const ms = performance.now() - start;
  // Checked right after tools/list, before anything else could start a child.
  const children = descendants(connection.pid);
  await connection.close();
  return { ms, tools: tools.length, children: children.length };
}

// CPU ms a fresh node spends to import one module (median of 3): where cold start goes.
const IMPORTS = [
  ['nothing (bare node)', ''],
  ['zod', 'zod'],
  ['SDK server (server/index.js)', '@modelcontextprotocol/sdk/server/index.js'],
  ['SDK client (pulls in ajv)', '@modelcontextprotocol/sdk/client/index.js'],
  ['execa', 'execa'],
  ['pino', 'pino'],
  ['hub: dist/cold-start/bootstrap.js (what server.js loads before answering)', '../../dist/cold-start/bootstrap.js'],
  ['hub: dist/hub.js (the full hub, loaded after the first tools/list)', '../../dist/hub.js'],
];

async function importCpuMs(specifier) {
  const samples = [];
  for (let i = 0; i < 3; i++) {
    const url = specifier.startsWith('.') ? new URL(specifier, import.meta.url).href : specifier;
    const code = `${url ? `await import(${JSON.stringify(url)});` : ''} const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'ignore'],
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
    });
    let out = '';
    child.stdout.on('data', chunk => (out += chunk));
    await once(child, 'exit');
    samples.push(Number(out));
  }
  return round(median(samples), 0);
}

export async function coldStartSection({ quick, smoke, log, shared }) {
  const runs = smoke ? 1 : quick ? 2 : 15;
  let tools = shared.everythingTools;
  if (!tools) {
    const direct = await spawnEverything();
    tools = (await direct.client.listTools()).tools;
    await direct.close();
  }
  const home = await tempHome();
  await addServers(
    home,
    Array.from({ length: SERVERS }, (_, i) => everythingRecord(`s${String(i + 1).padStart(2, '0')}`, i + 1, tools)),
  );
  // The first turn's home: the same servers and an ended process (hub's resources list its log).
  const turnHome = await tempHome();
  await addServers(
    turnHome,
    Array.from({ length: SERVERS }, (_, i) => everythingRecord(`s${String(i + 1).padStart(2, '0')}`, i + 1, tools)),
  );
  await addProcesses(turnHome, [exitedRecord(turnHome, 'p1', 1)]);
  log(`  ${runs} runs each, interleaved: hub with ${SERVERS} servers in its store vs one server-everything`);
  const hub = [];
  const raw = [];
  const turn = [];
  const direct = [];
  const minimal = [];
  const bare = [];
  const coldTurn = async () => {
    const result = await firstTurn(turnHome, { HUB_SHARED: 'on' });
    await stopSharedHub(turnHome);
    return result;
  };
  const kinds = [
    // Every tool listed (mode all): the cold-start lane's largest answer, as before exposure modes.
    [hub, () => timeToTools(() => spawnHub(home, { HUB_EXPOSURE: 'all' }))],
    [raw, () => firstTurn(home, { HUB_SHARED: 'off', HUB_EXPOSURE: 'all' }, ['tools/list'])],
    [turn, coldTurn],
    [direct, () => timeToTools(spawnEverything)],
    [minimal, () => timeToTools(spawnMinimal)],
    [bare, bareNode],
  ];
  // One unmeasured run of each warms the page cache for node and the modules (--smoke: none).
  if (!smoke) for (const [, run] of kinds) await run();
  for (let i = 0; i < runs; i++) {
    for (const [list, run] of roundOrder(kinds, i)) list.push(await run());
  }
  const hubMs = round(median(hub.map(r => r.ms)), 1);
  const rawMs = round(median(raw.map(r => r.toolsMs)), 1);
  const turnMs = round(median(turn.map(r => r.lastListMs)), 1);
  const directMs = round(median(direct.map(r => r.ms)), 1);
  const minimalMs = round(median(minimal.map(r => r.ms)), 1);
  const bareMs = round(median(bare.map(r => r.ms)), 1);
  const maxChildren = Math.max(...hub.map(r => r.children));
  const listed = hub[0].tools;
  const expectedProxied = SERVERS * tools.length;
  const proxiedListed = listed >= expectedProxied;
  const notes = [];
  if (!proxiedListed)
    notes.push(
      `hub listed ${listed} tools, fewer than the ${expectedProxied} cached proxied tools (listing from the store not in yet)`,
    );
  if (raw[0].tools !== listed) notes.push(`raw pipes listed ${raw[0].tools} tools, the SDK client ${listed}`);
  const imports = {};
  if (!quick) for (const [label, specifier] of IMPORTS) imports[label] = await importCpuMs(specifier);
  const rows = [
    row(
      'cold start',
      `hub with ${SERVERS} servers: spawn → initialize → tools/list, SDK client (ms, median; with its ajv work on the answer)`,
      hubMs,
      { label: 'one server-everything', value: directMs },
      { text: '< 150 ms', below: 150 },
      proxiedListed ? undefined : notes[0],
    ),
    row(
      'cold start',
      `hub with ${SERVERS} servers: spawn → tools/list answered, raw pipes (ms, median)`,
      rawMs,
      { label: 'node -e 0', value: bareMs },
      { text: '≤ 1.2× node -e 0', ratioMax: 1.2 },
    ),
    row(
      'cold start',
      `first turn (Claude Code), ${SERVERS} servers, a recorded process, no shared hub running: spawn → last of tools/prompts/resources lists (ms, median)`,
      turnMs,
      { label: 'node -e 0', value: bareMs },
    ),
    row('cold start', 'floor: minimal SDK server spawn → initialize → tools/list (ms)', minimalMs, {
      label: 'node -e 0',
      value: bareMs,
    }),
    row(
      'cold start',
      'child processes started by hub during cold start',
      maxChildren,
      { label: '', value: null },
      { text: '0', below: 1 },
    ),
  ];
  if (!proxiedListed) rows[0].pass = null;
  const bareCpu = imports['nothing (bare node)'];
  for (const [label, ms] of Object.entries(imports)) {
    if (label !== 'nothing (bare node)')
      rows.push(row('cold start', `import CPU: ${label} (ms)`, ms, { label: 'bare node', value: bareCpu }));
  }
  return {
    section: {
      status: proxiedListed ? 'ok' : 'partial',
      notes,
      runs,
      servers: SERVERS,
      hubMs: hub.map(r => round(r.ms, 1)),
      rawToolsMs: raw.map(r => round(r.toolsMs, 1)),
      firstTurnColdSharedMs: turn.map(r => ({
        init: round(r.initMs, 1),
        tools: round(r.toolsMs, 1),
        lastList: round(r.lastListMs, 1),
      })),
      directMs: direct.map(r => round(r.ms, 1)),
      minimalMs: minimal.map(r => round(r.ms, 1)),
      bareNodeMs: bare.map(r => round(r.ms, 1)),
      medianMs: {
        hub: hubMs,
        hubRawTools: rawMs,
        firstTurnColdShared: turnMs,
        direct: directMs,
        minimalSdkServer: minimalMs,
        bareNode: bareMs,
      },
      toolsListed: listed,
      expectedProxiedTools: expectedProxied,
      maxChildrenDuringColdStart: maxChildren,
      importCpuMs: imports,
    },
    rows,
  };
}
