import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeDir, tempHome } from '../lib/cleanup.mjs';
import { addProcesses, addServers, everythingRecord, exitedRecord, paths, storeOf } from '../lib/home.mjs';
import { spawnEverything } from '../lib/mcp.mjs';
import { percentile, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// 5. Store: 8 processes × 250 changes each through the real openStore, all at once, against
// the same number of changes from one process (no contention), interleaved.

const WORKER = fileURLToPath(new URL('../store-worker.mjs', import.meta.url));

async function runWriters(home, writers, perWriter, round, build) {
  const children = [];
  for (let w = 0; w < writers; w++) {
    const args = [home, `bench-${round}-w${w}`, `bench-${round}-total`, String(perWriter), ...(build ? [build] : [])];
    const child = fork(WORKER, args, {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
  }
  await Promise.all(children.map(child => once(child, 'message')));
  const start = performance.now();
  const results = children.map(child => once(child, 'message'));
  for (const child of children) child.send('go');
  const messages = (await Promise.all(results)).map(([message]) => message);
  const ms = performance.now() - start;
  const latencies = messages.flatMap(message => message.latenciesMs);
  const heldMs = messages.reduce((sum, message) => sum + message.heldMs, 0);
  await Promise.all(children.map(child => (child.exitCode === null ? once(child, 'exit') : undefined)));
  const { reservations } = await storeOf(home).read();
  const perWriterCounts = Array.from({ length: writers }, (_, w) => reservations[`bench-${round}-w${w}`] ?? 0);
  // Both must be exact: the shared counter catches lost updates between processes.
  const written = Math.min(
    reservations[`bench-${round}-total`] ?? 0,
    perWriterCounts.reduce((a, b) => a + b, 0),
  );
  return { ms, latencies, heldMs, expected: writers * perWriter, written };
}

const summarize = r => ({
  ms: round(r.ms, 0),
  lockHeldPct: round((r.heldMs / r.ms) * 100, 1),
  heldMsPerChange: round(r.heldMs / r.expected, 2),
  expected: r.expected,
  written: r.written,
  p50: round(percentile(r.latencies, 50), 2),
  p99: round(percentile(r.latencies, 99), 2),
});

// The cached tool lists, kept beside db.json (HUB_HOME/tools/<name>.json), never rewritten by these changes.
function toolsKb(home) {
  const dir = paths(home).toolsDir;
  let bytes = 0;
  try {
    for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).size;
  } catch {
    return 0;
  }
  return round(bytes / 1024, 0);
}

async function seededHome({ servers, processes }, tools) {
  const home = await tempHome();
  if (servers > 0 && tools)
    await addServers(
      home,
      Array.from({ length: servers }, (_, i) => everythingRecord(`s${i + 1}`, i + 1, tools)),
    );
  await addProcesses(
    home,
    Array.from({ length: processes }, (_, i) => exitedRecord(home, `old${i}`, i)),
  );
  return home;
}

async function measureCase({ label, servers, processes }, { writers, perWriter, rounds, tools, log, budgetMs }) {
  const home = await seededHome({ servers, processes }, tools);
  try {
    const fileKb = round(statSync(storeOf(home).file).size / 1024, 0);
    log(
      `  ${label} store (db.json ${fileKb} KB, tools/ ${toolsKb(home)} KB): ${writers} writers × ${perWriter} changes vs 1 writer × ${writers * perWriter}, ${rounds} round(s) each`,
    );
    const multi = [];
    const single = [];
    const caseStart = performance.now();
    let skipped = 0;
    for (let r = 0; r < rounds; r++) {
      // A slow machine must not push the run past its 10 minutes: later rounds are dropped.
      if (r > 0 && performance.now() - caseStart > budgetMs) {
        skipped = rounds - r;
        log(`  ${label}: ${skipped} round(s) skipped, over the ${budgetMs / 1000} s budget`);
        break;
      }
      const order = r % 2 === 0 ? ['multi', 'single'] : ['single', 'multi'];
      for (const kind of order) {
        if (kind === 'multi') multi.push(await runWriters(home, writers, perWriter, `m${r}`));
        else single.push(await runWriters(home, 1, writers * perWriter, `s${r}`));
      }
    }
    const rate = runs => (runs.reduce((a, r) => a + r.expected, 0) / runs.reduce((a, r) => a + r.ms, 0)) * 1000;
    const lost = runs => runs.reduce((a, r) => a + (r.expected - r.written), 0);
    const p99 = runs =>
      percentile(
        runs.flatMap(r => r.latencies),
        99,
      );
    const total = multi.concat(single).reduce((a, r) => a + r.expected, 0);
    const rows = [
      row(
        'store',
        `${label} db.json (${fileKb} KB), ${writers} processes × ${perWriter} changes: changes/s`,
        round(rate(multi), 0),
        { label: '1 process', value: round(rate(single), 0) },
        { text: '≥ 500/s', atLeast: 500 },
      ),
      row('store', `${label}: p99 latency per change under contention (ms)`, round(p99(multi), 2), {
        label: '1 process p99',
        value: round(p99(single), 2),
      }),
      row(
        'store',
        `${label}: changes lost`,
        lost(multi) + lost(single),
        { label: 'of', value: total },
        { text: '0', below: 1 },
      ),
    ];
    rows[2].ratio = null;
    // Lock utilisation: the share of the wall time some writer held the lock; the rest is handoff.
    const held = runs => (runs.reduce((a, r) => a + r.heldMs, 0) / runs.reduce((a, r) => a + r.ms, 0)) * 100;
    const heldPerChange = runs => runs.reduce((a, r) => a + r.heldMs, 0) / runs.reduce((a, r) => a + r.expected, 0);
    rows.push(
      row('store', `${label}: lock held per change (ms)`, round(heldPerChange(multi), 2), {
        label: '1 process',
        value: round(heldPerChange(single), 2),
      }),
      row('store', `${label}: share of time the lock is held, under contention (%)`, round(held(multi), 1), {
        label: '1 process',
        value: round(held(single), 1),
      }),
    );
    return {
      result: {
        skippedRounds: skipped,
        dbJsonKb: fileKb,
        finalDbJsonKb: round(statSync(storeOf(home).file).size / 1024, 0),
        multi: multi.map(summarize),
        single: single.map(summarize),
      },
      rows,
    };
  } finally {
    removeDir(home);
  }
}

export async function storeSection({ quick, smoke, log, shared }) {
  const writers = 8;
  const perWriter = smoke ? 5 : quick ? 25 : 250;
  const cases = [
    { label: 'small', servers: 0, processes: 100, rounds: quick ? 1 : 2 },
    ...(quick ? [] : [{ label: 'lived-in', servers: 20, processes: 100, rounds: 1 }]),
  ];
  // The lived-in case needs real tool lists even when the proxy section (which shares them) did not run.
  if (!quick && !shared.everythingTools) {
    const direct = await spawnEverything();
    shared.everythingTools = (await direct.client.listTools()).tools;
    await direct.close();
  }
  const section = { status: 'ok', writers, perWriter, cases: {} };
  const rows = [];
  for (const c of cases) {
    const out = await measureCase(c, {
      writers,
      perWriter,
      rounds: c.rounds,
      tools: shared.everythingTools,
      log,
      budgetMs: quick ? 15_000 : 60_000,
    });
    section.cases[c.label] = { ...c, ...out.result };
    rows.push(...out.rows);
  }
  return { section, rows };
}

/**
 * Two builds (copies of dist/) on the same HUB_HOME, rounds interleaved in rotating order: the
 * store's changes/s under contention (8 writers) and alone, and the lock held per change, as
 * medians of the rounds, B against A (bench/ab.mjs --store).
 */
export async function storeAB(builds, { rounds = 6, perWriter = 250, log }) {
  const writers = 8;
  const direct = await spawnEverything();
  const tools = (await direct.client.listTools()).tools;
  await direct.close();
  const out = {};
  for (const c of [
    { label: 'small', servers: 0, processes: 100 },
    { label: 'lived-in', servers: 20, processes: 100 },
  ]) {
    const home = await seededHome(c, tools);
    try {
      const runs = { A: { multi: [], single: [] }, B: { multi: [], single: [] } };
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
        for (const name of order) {
          const build = builds[name === 'A' ? 0 : 1];
          runs[name].multi.push(await runWriters(home, writers, perWriter, `${name}m${r}`, build));
          runs[name].single.push(await runWriters(home, 1, writers * perWriter, `${name}s${r}`, build));
        }
      }
      const med = values => percentile(values, 50);
      const figures = kind =>
        Object.fromEntries(
          ['A', 'B'].map(name => {
            const list = runs[name][kind];
            return [
              name,
              {
                perSecond: round(med(list.map(r => (r.expected / r.ms) * 1000)), 0),
                heldMsPerChange: round(med(list.map(r => r.heldMs / r.expected)), 3),
                p99Ms: round(med(list.map(r => percentile(r.latencies, 99))), 2),
                lost: list.reduce((a, r) => a + (r.expected - r.written), 0),
              },
            ];
          }),
        );
      out[c.label] = {
        dbJsonKb: round(statSync(storeOf(home).file).size / 1024, 0),
        multi: figures('multi'),
        single: figures('single'),
      };
      log(`${c.label}: ${JSON.stringify(out[c.label])}`);
    } finally {
      removeDir(home);
    }
  }
  return out;
}
