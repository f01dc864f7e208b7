#!/usr/bin/env node
// How fast new tools reach a client after registry.install (issue 10.5): 20 servers installed,
// raw JSON-RPC over stdio (no client-side parsing in the figures), a client that re-lists as
// soon as list_changed arrives. Prints the warm tools/list round trip, the re-list round trip
// during each install, and whether the re-list was answered before the install result.
//   node bench/relist.mjs [path/to/server.js]      (default: dist/server.js; build first)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { addServers, everythingRecord } from './lib/home.mjs';
import { EVERYTHING_JS, HUB_JS, spawnEverything } from './lib/mcp.mjs';
import { summary } from './lib/stats.mjs';

const hubJs = resolve(process.argv[2] ?? HUB_JS);
const home = mkdtempSync(join(tmpdir(), 'hub-bench-relist-'));
const us = ms => Math.round(ms * 1000);
let child;

try {
  const everything = await spawnEverything();
  const tools = (await everything.client.listTools()).tools;
  await everything.close();
  await addServers(
    home,
    Array.from({ length: 20 }, (_, index) => everythingRecord(`srv${index}`, index, tools)),
  );

  child = spawn(process.execPath, [hubJs], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HUB_HOME: home,
      HUB_LOG_LEVEL: 'silent',
      HUB_EXPOSURE: 'all',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const waiting = new Map();
  let onMessage = () => undefined;
  createInterface({ input: child.stdout }).on('line', line => {
    const message = JSON.parse(line);
    const at = performance.now();
    onMessage(message, at);
    if ('id' in message && !('method' in message)) waiting.get(message.id)?.({ message, at });
  });
  let nextId = 1;
  const send = message => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const request = (method, params) => {
    const id = nextId++;
    const answered = new Promise(resolve => waiting.set(id, resolve));
    send({ id, method, ...(params && { params }) });
    return answered;
  };
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  send({ method: 'notifications/initialized' });

  const listed = (await request('tools/list')).message.result.tools.length;
  for (let i = 0; i < 50; i += 1) await request('tools/list');
  const warm = [];
  for (let i = 0; i < 300; i += 1) {
    const start = performance.now();
    const { at } = await request('tools/list');
    warm.push(at - start);
  }

  const relist = [];
  let beforeResult = 0;
  const rounds = 8;
  for (let round = 0; round < rounds; round += 1) {
    let relisted;
    onMessage = message => {
      if (message.method !== 'notifications/tools/list_changed' || relisted) return;
      const start = performance.now();
      relisted = request('tools/list').then(({ at }) => ({ took: at - start, at }));
    };
    const name = `fresh${round}`;
    const { message, at: resultAt } = await request('tools/call', {
      name: 'registry_install',
      arguments: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'], name },
    });
    if (message.result?.isError || !relisted)
      throw new Error(`install failed: ${JSON.stringify(message).slice(0, 400)}`);
    const { took, at } = await relisted;
    relist.push(took);
    if (at <= resultAt) beforeResult += 1;
    onMessage = () => undefined;
    await request('tools/call', { name: 'registry_uninstall', arguments: { name } });
  }

  const fmt = s => `p50 ${us(s.p50)} µs, p90 ${us(s.p90)} µs, max ${us(s.max)} µs (n=${s.n})`;
  console.log(`hub: ${hubJs}`);
  console.log(`tools/list with ${listed} tools, warm round trip: ${fmt(summary(warm))}`);
  console.log(`re-list right after list_changed during registry.install: ${fmt(summary(relist))}`);
  console.log(`re-list answered before the install result: ${beforeResult}/${rounds}`);
} finally {
  child?.stdin.end();
  child?.kill();
  rmSync(home, { recursive: true, force: true });
}
