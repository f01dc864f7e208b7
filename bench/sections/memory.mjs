import { setTimeout as sleep } from 'node:timers/promises';
import { tempHome } from '../lib/cleanup.mjs';
import { addServers, everythingRecord, storeOf } from '../lib/home.mjs';
import { callTool, spawnEverything, spawnHub, toolNames } from '../lib/mcp.mjs';
import { descendants, groupMembers, pssKb, rssKb } from '../lib/proc.mjs';
import { median, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// 3. Memory: hub idle, hub with 10 child servers running (hub and children apart), and the
// memory of hub's own machinery per managed process (the keeper between hub and a command).

const CHILDREN = 10;
const MANAGED = 5;
const mb = kb => round(kb / 1024, 1);

// RSS settles a moment after the last request (lazy allocations, GC): sample a few times.
let settleMs = 700;
const IDLE_WAIT_MS = quick => (quick ? 1_000 : 15_000);
async function settledRss(pid) {
  await sleep(settleMs);
  const samples = [];
  for (let i = 0; i < 3; i++) {
    samples.push(rssKb(pid));
    await sleep(150);
  }
  return median(samples);
}

async function keeperMemory(hub, home, log) {
  if (!(await toolNames(hub.client)).includes('start_process')) return { missing: 'hub has no start_process yet' };
  const before = new Set(Object.keys((await storeOf(home).read()).processes));
  const hubBefore = await settledRss(hub.pid);
  for (let i = 0; i < MANAGED; i++)
    await callTool(hub.client, 'start_process', { command: 'sleep', args: ['600'], name: `bench-sleep-${i}` });
  const hubAfter = await settledRss(hub.pid);
  const records = Object.values((await storeOf(home).read()).processes).filter(r => !before.has(r.id));
  const keepers = [];
  for (const record of records) {
    const group = record.pgid ?? record.pid;
    const members = groupMembers(group);
    // The keeper is the group leader hub recorded; the command is whatever else runs in the group.
    const keeper = members.includes(group) ? group : record.pid;
    const command = members.filter(pid => pid !== keeper);
    keepers.push({
      id: record.id,
      keeperPid: keeper,
      keeperRssKb: rssKb(keeper),
      keeperPssKb: pssKb(keeper),
      commandRssKb: command.reduce((sum, pid) => sum + rssKb(pid), 0),
      members: members.length,
    });
  }
  for (const record of records)
    await callTool(hub.client, 'kill_process', { id: record.id, remove: true }).catch(error =>
      log(`  kill_process ${record.id}: ${error.message}`),
    );
  return {
    keepers,
    keeperRssKb: median(keepers.map(k => k.keeperRssKb)),
    keeperPssKb: median(keepers.map(k => k.keeperPssKb)),
    commandRssKb: median(keepers.map(k => k.commandRssKb)),
    hubGrowthPerProcessKb: round((hubAfter - hubBefore) / MANAGED, 0),
  };
}

export async function memorySection({ quick, smoke, log, shared }) {
  settleMs = smoke ? 100 : quick ? 250 : 700;
  const direct = await spawnEverything();
  const tools = shared.everythingTools ?? (await direct.client.listTools()).tools;
  await direct.client.callTool({ name: 'echo', arguments: { message: 'x' } });
  const home = await tempHome();
  const names = Array.from({ length: CHILDREN }, (_, i) => `e${String(i + 1).padStart(2, '0')}`);
  await addServers(
    home,
    names.map((name, i) => everythingRecord(name, i + 1, tools)),
  );
  // Every tool listed (mode all), as before exposure modes: the figures stay comparable.
  const hub = await spawnHub(home, { HUB_EXPOSURE: 'all' });
  await hub.client.listTools();
  const [hubEarlyKb, directEarlyKb] = await Promise.all([settledRss(hub.pid), settledRss(direct.pid)]);
  // Idle is what a hub sitting in a client config costs between uses: V8's memory reducer
  // compacts the heap some 8–10 s after activity drops, in hub and in the reference alike.
  log(`  hub ${mb(hubEarlyKb)} MB right after tools/list; waiting ${IDLE_WAIT_MS(quick) / 1000} s idle`);
  await sleep(IDLE_WAIT_MS(quick));
  const [hubIdleKb, directKb] = await Promise.all([settledRss(hub.pid), settledRss(direct.pid)]);
  const hubIdlePssKb = pssKb(hub.pid);
  await direct.close();
  log(`  hub idle ${mb(hubIdleKb)} MB; starting ${CHILDREN} children through calls`);

  let childrenMissing;
  let hubBusyKb;
  let childKb = [];
  try {
    for (const name of names) await callTool(hub.client, `${name}.echo`, { message: 'x' });
    hubBusyKb = await settledRss(hub.pid);
    childKb = descendants(hub.pid)
      .map(pid => rssKb(pid))
      .filter(kb => kb > 0);
  } catch (error) {
    childrenMissing = `proxied calls not available: ${error.message.split('\n')[0]}`;
  }
  const keeper = await keeperMemory(hub, home, log);
  await hub.close();

  const rows = [
    row(
      'memory',
      `hub RSS idle (${IDLE_WAIT_MS(quick) / 1000} s after tools/list), 10 servers installed (MB)`,
      mb(hubIdleKb),
      { label: 'server-everything idle', value: mb(directKb) },
      { text: '< 70 MB', below: 70 },
    ),
    row('memory', 'hub RSS 0.7 s after tools/list, before the heap is compacted (MB)', mb(hubEarlyKb), {
      label: 'server-everything',
      value: mb(directEarlyKb),
    }),
  ];
  if (childrenMissing)
    rows.push(
      row(
        'memory',
        `hub RSS with ${CHILDREN} children running (MB)`,
        null,
        { label: '', value: null },
        undefined,
        childrenMissing,
      ),
    );
  else {
    const childrenTotal = childKb.reduce((a, b) => a + b, 0);
    rows.push(
      row('memory', `hub RSS with ${CHILDREN} children running (MB)`, mb(hubBusyKb), {
        label: 'hub idle',
        value: mb(hubIdleKb),
      }),
      row('memory', `hub growth per running child (MB)`, mb((hubBusyKb - hubIdleKb) / CHILDREN), {
        label: 'reference',
        value: null,
      }),
      row('memory', `children RSS total (${childKb.length} processes, MB)`, mb(childrenTotal), {
        label: `${CHILDREN}× server-everything`,
        value: mb(directEarlyKb * CHILDREN),
      }),
    );
  }
  if (keeper.missing)
    rows.push(
      row('memory', 'keeper RSS per managed process (MB)', null, { label: '', value: null }, undefined, keeper.missing),
    );
  else {
    rows.push(
      row(
        'memory',
        'keeper RSS per managed process (MB)',
        mb(keeper.keeperRssKb),
        { label: 'the command (sleep)', value: mb(keeper.commandRssKb) },
        { text: '< 5 MB', below: 5 },
      ),
      row('memory', 'keeper PSS per managed process (MB)', mb(keeper.keeperPssKb), { label: 'reference', value: null }),
      row('memory', 'hub RSS growth per managed process (MB)', mb(keeper.hubGrowthPerProcessKb), {
        label: 'reference',
        value: null,
      }),
    );
  }
  return {
    section: {
      status: childrenMissing || keeper.missing ? 'partial' : 'ok',
      notes: [childrenMissing, keeper.missing].filter(Boolean),
      hubIdleKb,
      hubIdlePssKb,
      hubAfterListKb: hubEarlyKb,
      directEverythingAfterListKb: directEarlyKb,
      idleWaitMs: IDLE_WAIT_MS(quick),
      directEverythingIdleKb: directKb,
      hubWithChildrenKb: hubBusyKb ?? null,
      childrenKb: childKb,
      keeper,
    },
    rows,
  };
}
