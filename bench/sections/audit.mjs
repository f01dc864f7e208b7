// Issue 31 item 6: what the audit log costs a proxied call, and its size. The same build twice,
// interleaved in one run: audit.enabled false (the reference) and the default (on), each calling
// everything.echo through hub; then the bytes the log took per 10,000 calls.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempHome } from '../lib/cleanup.mjs';
import { row } from '../lib/report.mjs';
import { round } from '../lib/stats.mjs';
import { hubTarget, registerEverything } from '../lib/targets.mjs';
import { measureEcho } from './proxy.mjs';

const PLAN = {
  quick: { warmupMs: 500, rounds: 5, block: 80, tputRounds: 2, tputBlock: 300 },
  full: { warmupMs: 3000, rounds: 40, block: 100, tputRounds: 10, tputBlock: 500 },
};

// The log's call lines: their count and bytes (install lines of the setup left out).
function callLines(home) {
  const dir = join(home, 'audit');
  let lines = 0;
  let bytes = 0;
  for (const name of readdirSync(dir).filter(file => file.endsWith('.jsonl')))
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n'))
      if (line.includes('"kind":"call"') && line.includes('"server":"everything"')) {
        lines += 1;
        bytes += Buffer.byteLength(line) + 1;
      }
  return { lines, bytes };
}

export async function auditSection({ quick, log, shared }) {
  const plan = quick ? PLAN.quick : PLAN.full;
  const [off, on] = [await tempHome(), await tempHome()];
  try {
    writeFileSync(join(off, 'config.json'), JSON.stringify({ audit: { enabled: false } }));
    for (const home of [off, on]) await registerEverything(home, shared.everythingTools);
    const targets = [
      { ...(await hubTarget(off)), name: 'off' },
      { ...(await hubTarget(on)), name: 'on' },
    ];
    log(`  audit off, on: warm-up ${plan.warmupMs} ms, ${plan.rounds * plan.block} sequential calls each`);
    const results = await measureEcho(targets, plan);
    // Closed first: each hub writes what it still holds as it exits.
    await Promise.all(targets.map(t => t.connection.close()));
    const written = callLines(on);
    const perTenThousand = written.lines === 0 ? null : Math.round((written.bytes / written.lines) * 10_000);
    const added = results.on.paired;
    const offP50 = results.off.latencyUs.p50;
    const rows = [
      row('audit', 'proxied echo p50, audit off / on (µs)', `${offP50} / ${results.on.latencyUs.p50}`, {
        label: 'reference',
        value: null,
      }),
      row(
        'audit',
        'audit log added p50 (µs, paired by round)',
        added.addedP50Us,
        { label: 'proxied call p50, audit off', value: offP50 },
        { text: '≤ 5 % of a proxied call', ratioMax: 0.05 },
      ),
      row('audit', 'audit log added CPU per call (µs, paired)', added.addedCpuUs, {
        label: 'hub CPU per call, audit off',
        value: results.off.cpuUsPerCall,
      }),
      row('audit', 'throughput, audit on ÷ off (paired)', added.throughputRatio, { label: 'reference', value: null }),
      row(
        'audit',
        'log size per 10,000 calls (bytes)',
        perTenThousand,
        { label: `${written.lines} call lines, ${written.bytes} bytes`, value: null },
        undefined,
        perTenThousand === null ? undefined : `${round(perTenThousand / 1024 / 1024, 2)} MiB`,
      ),
    ];
    return { section: { status: 'ok', plan, results, written, bytesPer10k: perTenThousand }, rows };
  } finally {
    removeDir(off);
    removeDir(on);
  }
}
