import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir, tempHome } from '../lib/cleanup.mjs';
import { analyzeProfile, describeAnalysis, readProfileIn } from '../lib/cpu-profile.mjs';
import { connectStdio, EVERYTHING_JS, HUB_JS, NAIVE_PROXY_JS, spawnEverything } from '../lib/mcp.mjs';
import { measureEcho } from './proxy.mjs';
import { registerEverything } from '../lib/targets.mjs';
import { descendants } from '../lib/proc.mjs';
import { row } from '../lib/report.mjs';
import { round } from '../lib/stats.mjs';

// Where hub's time goes on the proxied-echo hot path: hub (and, as a reference, the naive
// proxy) run under node --cpu-prof while echo is called through them; the profile is analysed
// into top self-time functions and time by area (zod, SDK protocol, JSON, logging, store, ...).

const PLAN = {
  quick: { warmupMs: 500, rounds: 4, block: 100, tputRounds: 1, tputBlock: 400 },
  // --smoke (the test suite's check that every section runs): the least that still runs each step.
  smoke: { warmupMs: 50, rounds: 2, block: 10, tputRounds: 1, tputBlock: 32 },
  full: { warmupMs: 2000, rounds: 10, block: 500, tputRounds: 2, tputBlock: 2500 },
};
const ECHO = { message: 'hello from the hub bench' };

async function profiled(name, script, args, env, tool) {
  const dir = await tempDir(`hub-bench-prof-${name}-`);
  const connection = await connectStdio({
    args: ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir, script, ...args],
    env,
  });
  const target = {
    name,
    connection,
    pid: connection.pid,
    call: () => connection.client.callTool({ name: tool, arguments: ECHO }),
    pids: () => [connection.pid, ...descendants(connection.pid)],
  };
  return { dir, target };
}

async function collect(dir, close) {
  await close();
  // The profile is written as the process exits (hub exits when its stdin closes).
  for (let i = 0; i < 100; i++) {
    const profile = await readProfileIn(dir).catch(() => undefined);
    if (profile) return profile;
    await sleep(100);
  }
  throw new Error(`no .cpuprofile appeared in ${dir}`);
}

export async function profileSection({ quick, smoke, log, shared }) {
  const plan = smoke ? PLAN.smoke : quick ? PLAN.quick : PLAN.full;
  let tools = shared.everythingTools;
  if (!tools) {
    const direct = await spawnEverything();
    tools = (await direct.client.listTools()).tools;
    await direct.close();
  }
  const home = shared.proxyHome ?? (await tempHome());
  if (!shared.proxyHome) await registerEverything(home, tools).catch(error => log(`  hub: ${error.message}`));

  const naive = await profiled('naive', NAIVE_PROXY_JS, [EVERYTHING_JS, 'stdio'], {}, 'everything.echo');
  const hub = await profiled('hub', HUB_JS, [], { HUB_HOME: home }, 'everything.echo');
  const hubTools = (await hub.target.connection.client.listTools()).tools.map(t => t.name);
  let hubMissing;
  if (!hubTools.includes('everything_echo') && !hubTools.includes('everything.echo'))
    hubMissing = 'hub does not list everything.echo yet';
  else {
    const probe = await hub.target.call().catch(error => ({ isError: true, content: [{ text: error.message }] }));
    if (probe.isError) hubMissing = `everything.echo through hub failed: ${probe.content?.[0]?.text}`;
  }
  const targets = hubMissing ? [naive.target] : [naive.target, hub.target];
  log(
    `  profiling ${targets.map(t => t.name).join(', ')} under echo load (${plan.rounds * plan.block} sequential + ${plan.tputRounds * plan.tputBlock} concurrent calls)`,
  );
  // CPU profile timestamps are CLOCK_MONOTONIC µs, like hrtime: keep only the measured load.
  let fromUs = 0;
  const load = await measureEcho(targets, plan, () => {
    fromUs = Number(process.hrtime.bigint() / 1000n);
  });

  const analyses = {};
  analyses.naive = analyzeProfile(await collect(naive.dir, naive.target.connection.close), { fromUs });
  if (hubMissing) await hub.target.connection.close();
  else analyses.hub = analyzeProfile(await collect(hub.dir, hub.target.connection.close), { fromUs });

  const summaryText = [
    'Profile of the proxied echo hot path (node --cpu-prof, busy samples only):',
    ...Object.entries(analyses).map(([n, a]) => describeAnalysis(n, a)),
  ].join('\n');
  if (hubMissing) log(`  hub: ${hubMissing}`);
  const inclusive = (a, area) => a?.inclusiveByArea.find(x => x.area === area)?.pct ?? 0;
  const self = (a, area) => a?.selfByArea.find(x => x.area === area)?.pct ?? 0;
  const selfFn = (a, pattern) => a?.topSelf.filter(x => pattern.test(x.fn)).reduce((sum, x) => sum + x.pct, 0) ?? 0;
  // JSON.parse/stringify are builtins without a frame of their own: their time shows as the
  // self time of the caller (deserializeMessage, serializeMessage, send).
  const figures = [
    ['zod validation (on the stack)', a => inclusive(a, 'zod')],
    ['SDK Protocol (on the stack)', a => inclusive(a, 'sdk protocol')],
    ['hub code in dist/ (on the stack)', a => inclusive(a, 'hub dist/ (any)')],
    [
      'JSON line parsing: deserializeMessage / line-reader #parse (self)',
      a => round(selfFn(a, /^(deserializeMessage|#parse) /), 1),
    ],
    ['pipe writes, writeUtf8String (self)', a => round(selfFn(a, /^writeUtf8String /), 1)],
    ['logging, pino (on the stack)', a => inclusive(a, 'logging (pino)')],
    ['store, lowdb (on the stack)', a => inclusive(a, 'store (lowdb/hub store)')],
    ['GC (self)', a => self(a, 'GC')],
  ];
  const rows = figures.map(([label, get]) =>
    row(
      'profile',
      `% of busy CPU: ${label}`,
      analyses.hub ? get(analyses.hub) : null,
      { label: 'naive', value: get(analyses.naive) },
      undefined,
      analyses.hub ? undefined : hubMissing,
    ),
  );
  return { section: { status: hubMissing ? 'partial' : 'ok', reason: hubMissing, load, analyses, summaryText }, rows };
}
