import { tempHome } from '../lib/cleanup.mjs';
import { addProcesses, exitedRecord, storeOf } from '../lib/home.mjs';
import { callTool, spawnHub, textOf, toolNames } from '../lib/mcp.mjs';
import { median, round } from '../lib/stats.mjs';
import { cpuNs } from '../lib/proc.mjs';
import { row } from '../lib/report.mjs';

// 6. list_processes with 1,000 records (980 ended, 20 running sleeps started by start_process),
// interleaved with the same call on a store holding just the 20 running ones.

const TOTAL = 1000;

const listedCount = result => {
  const structured = result.structuredContent ?? {};
  const array = Object.values(structured).find(Array.isArray);
  return array ? array.length : null;
};

async function startSleeps(hub, home, running) {
  for (let i = 0; i < running; i++)
    await callTool(hub.client, 'start_process', {
      command: 'sleep',
      args: ['600'],
      name: `bench-sleep-${i}`,
      tags: ['bench'],
    });
  return Object.keys((await storeOf(home).read()).processes);
}

export async function listProcessesSection({ quick, smoke, log }) {
  const runs = smoke ? 3 : quick ? 10 : 40;
  // The smoke run starts fewer sleeps; the full run has the 20 running the target names.
  const RUNNING = smoke ? 2 : quick ? 5 : 20;
  const bigHome = await tempHome();
  const smallHome = await tempHome();
  const big = await spawnHub(bigHome);
  const small = await spawnHub(smallHome);
  const started = [];
  try {
    if (!(await toolNames(big.client)).includes('start_process')) {
      const note = 'hub has no start_process/list_processes yet';
      return {
        section: { status: 'unavailable', reason: note },
        rows: [
          row('list_processes', 'list_processes with 1,000 records', null, { label: '', value: null }, undefined, note),
        ],
      };
    }
    log(`  starting ${RUNNING} sleeps in each of two homes; adding ${TOTAL - RUNNING} ended records to one`);
    started.push(...(await startSleeps(big, bigHome, RUNNING)).map(id => [big, id]));
    started.push(...(await startSleeps(small, smallHome, RUNNING)).map(id => [small, id]));
    await addProcesses(
      bigHome,
      Array.from({ length: TOTAL - RUNNING }, (_, i) => exitedRecord(bigHome, `ended${String(i).padStart(4, '0')}`, i)),
    );

    const times = { big: [], small: [] };
    const cpu = { big: { hub: 0, client: 0 }, small: { hub: 0, client: 0 } };
    const counts = {};
    const call = async (key, hub, keep) => {
      const hubBefore = cpuNs(hub.pid);
      const clientBefore = process.cpuUsage();
      const start = performance.now();
      const result = await hub.client.callTool({ name: 'list_processes', arguments: {} });
      const ms = performance.now() - start;
      const client = process.cpuUsage(clientBefore);
      if (result.isError) throw new Error(`list_processes: ${textOf(result)}`);
      if (keep) {
        times[key].push(ms);
        // Where the time goes: hub's CPU, and this client's (parsing and validating the result).
        cpu[key].hub += (cpuNs(hub.pid) - hubBefore) / 1e6;
        cpu[key].client += (client.user + client.system) / 1000;
      }
      counts[key] = {
        listed: listedCount(result),
        textBytes: Buffer.byteLength(textOf(result)),
        resultBytes: Buffer.byteLength(JSON.stringify(result)),
      };
    };
    for (let i = 0; i < 5; i++) {
      await call('big', big, false);
      await call('small', small, false);
    }
    for (let i = 0; i < runs; i++) {
      const pair =
        i % 2 === 0
          ? [
              ['big', big],
              ['small', small],
            ]
          : [
              ['small', small],
              ['big', big],
            ];
      for (const [key, hub] of pair) await call(key, hub, true);
    }
    const m = { big: round(median(times.big), 2), small: round(median(times.small), 2) };
    const perCall = key => ({ hubCpuMs: round(cpu[key].hub / runs, 2), clientCpuMs: round(cpu[key].client / runs, 2) });
    const split = { big: perCall('big'), small: perCall('small') };
    const rows = [
      row(
        'list_processes',
        `list_processes, ${TOTAL} records (${RUNNING} running) (ms, median)`,
        m.big,
        { label: `${RUNNING} records`, value: m.small },
        { text: '< 50 ms', below: 50 },
      ),
      row('list_processes', `  of which hub CPU per call (ms)`, split.big.hubCpuMs, {
        label: `${RUNNING} records`,
        value: split.small.hubCpuMs,
      }),
      row(
        'list_processes',
        `  of which client CPU per call, ${round(counts.big.resultBytes / 1024, 0)} KB result (ms)`,
        split.big.clientCpuMs,
        { label: `${RUNNING} records`, value: split.small.clientCpuMs },
      ),
    ];
    if (counts.big.listed !== null && counts.big.listed !== TOTAL)
      rows.push(
        row(
          'list_processes',
          `listed ${counts.big.listed} of ${TOTAL} records`,
          null,
          { label: '', value: null },
          undefined,
          'not every record was listed',
        ),
      );
    return { section: { status: 'ok', runs, medianMs: m, cpuPerCall: split, counts }, rows };
  } finally {
    for (const [hub, id] of started)
      await callTool(hub.client, 'kill_process', { id, signal: 'SIGKILL', grace_ms: 0 }).catch(() => undefined);
    await big.close();
    await small.close();
  }
}
