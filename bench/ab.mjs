#!/usr/bin/env node
// Compares two hub builds on the proxied-echo hot path, interleaved in the same run:
//   cp -r dist .exp/A; (make the change; npm run build); cp -r dist .exp/B
//   node bench/ab.mjs .exp/A .exp/B
//   node bench/ab.mjs .exp/A .exp/B --store    # the store section's writers instead
// Builds must sit inside this repo so they resolve node_modules. Uses the proxy section's
// measureEcho (warm-up, rounds in rotating order, paired medians). On a shared 2-core machine a
// build against a copy of itself differs by up to ~7%: smaller effects are noise.
//   node bench/ab.mjs .exp/A .exp/B --instructions
// counts instead the instructions hub's process runs per proxied call under callgrind (see
// lib/instructions.mjs; 4-7 minutes per build on a busy machine). Builds run one after the
// other: hub's count moves up to ~9 % with the machine's load (timers that fire per second, such
// as metrics publishing, meet fewer calls when the machine is slower), so run it on a quiet one.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanupAll, installExitHandlers, tempHome } from './lib/cleanup.mjs';
import { connectStdio } from './lib/mcp.mjs';
import { registerEverything, target } from './lib/targets.mjs';
import { callgrindMissing, countInstructions, COUNT_PLAN } from './lib/instructions.mjs';
import { measureEcho } from './sections/proxy.mjs';
import { storeAB } from './sections/store.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { instructions: { type: 'boolean', default: false } },
});
const builds = positionals.slice(0, 2).map(dir => resolve(dir));
if (builds.length !== 2) {
  process.stderr.write('usage: node bench/ab.mjs <dist copy A> <dist copy B> [--instructions]\n');
  process.exit(2);
}
installExitHandlers();
if (process.argv.includes('--store')) {
  const out = await storeAB(builds, { log: line => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  await cleanupAll();
  process.exit(0);
}
const PLAN = { warmupMs: 3000, rounds: 24, block: 400, tputRounds: 8, tputBlock: 1600 };

const home = await tempHome();
await registerEverything(home, undefined);

if (values.instructions) {
  const missing = callgrindMissing();
  if (missing) {
    process.stderr.write(`${missing}\n`);
    process.exit(2);
  }
  const counts = [];
  for (const [i, dir] of builds.entries()) {
    const count = await countInstructions({
      args: [`${dir}/server.js`],
      env: { HUB_HOME: home },
      tool: 'everything.echo',
      ...COUNT_PLAN,
    });
    counts.push(count.perCall);
    process.stdout.write(
      `${'AB'[i]} ${dir}: ${count.perCall} instructions per proxied call (hub's process; main thread ${count.mainPerCall})\n`,
    );
  }
  process.stdout.write(`B ÷ A: ${(counts[1] / counts[0]).toFixed(3)}\n`);
  await cleanupAll();
  process.exit(0);
}
const targets = await Promise.all(
  builds.map(async (dir, i) =>
    target(
      'AB'[i],
      await connectStdio({ args: [`${dir}/server.js`], env: { HUB_HOME: home } }),
      'everything.echo',
      true,
    ),
  ),
);
const results = await measureEcho(targets, PLAN);
targets.forEach((t, i) => {
  const r = results[t.name];
  process.stdout.write(
    `${t.name} ${builds[i]}: hub CPU/call ${r.cpuUsPerCallOwnProcess} µs, p50 ${r.latencyUs.p50} µs, ${r.throughputPerS} calls/s at 16 in flight\n`,
  );
});
const b = results.B.paired;
process.stdout.write(
  `B − A, paired by round: p50 ${b.addedP50Us} µs, CPU ${b.addedCpuUs} µs/call (whole tree), throughput ${b.throughputRatio}×\n`,
);
await Promise.all(targets.map(t => t.connection.close()));
await cleanupAll();
