#!/usr/bin/env node
// Compares two hub builds on the proxied-echo hot path, interleaved in the same run:
//   cp -r dist .exp/A; (make the change; npm run build); cp -r dist .exp/B
//   node bench/ab.mjs .exp/A .exp/B
// Builds must sit inside this repo so they resolve node_modules. Prints medians over 24 rounds of
// hub's own CPU per call, p50 of 400 sequential calls, and throughput with 16 in flight. On a
// shared 2-core machine a build against a copy of itself differs by up to ~7%: smaller effects
// are noise.
import { resolve } from 'node:path';
import { cleanupAll, installExitHandlers, tempHome } from './lib/cleanup.mjs';
import { connectStdio } from './lib/mcp.mjs';
import { cpuNs } from './lib/proc.mjs';
import { registerEverything } from './lib/targets.mjs';
import { median } from './lib/stats.mjs';

const builds = process.argv.slice(2, 4).map(dir => resolve(dir));
if (builds.length !== 2) {
  process.stderr.write('usage: node bench/ab.mjs <dist copy A> <dist copy B>\n');
  process.exit(2);
}
installExitHandlers();
const ROUNDS = 24;
const SEQUENTIAL = 400;
const CONCURRENT = 1600;
const ECHO = { message: 'hello from the hub bench' };

const home = await tempHome();
await registerEverything(home, undefined);
const hubs = await Promise.all(builds.map(dir => connectStdio({ args: [`${dir}/server.js`], env: { HUB_HOME: home } })));
const call = hub => hub.client.callTool({ name: 'everything.echo', arguments: ECHO });
const warmUntil = Date.now() + 3000;
while (Date.now() < warmUntil) for (const hub of hubs) await call(hub);

const results = hubs.map(() => ({ cpu: [], p50: [], tput: [] }));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) {
    const hub = hubs[i];
    const latencies = [];
    const cpuBefore = cpuNs(hub.pid);
    for (let n = 0; n < SEQUENTIAL; n++) {
      const start = performance.now();
      await call(hub);
      latencies.push(performance.now() - start);
    }
    results[i].cpu.push((cpuNs(hub.pid) - cpuBefore) / SEQUENTIAL / 1000);
    results[i].p50.push(median(latencies) * 1000);
    let sent = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (sent < CONCURRENT) {
        sent += 1;
        await call(hub);
      }
    }));
    results[i].tput.push(CONCURRENT / ((performance.now() - start) / 1000));
  }
}
builds.forEach((dir, i) => {
  const r = results[i];
  process.stdout.write(`${'AB'[i]} ${dir}: hub CPU/call ${median(r.cpu).toFixed(1)} µs, p50 ${median(r.p50).toFixed(1)} µs, ${median(r.tput).toFixed(0)} calls/s at 16 in flight\n`);
});
await Promise.all(hubs.map(hub => hub.close()));
await cleanupAll();
