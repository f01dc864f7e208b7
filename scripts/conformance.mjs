#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance), run against hub.
//
//   npm run conformance            the server scenarios (same as `-- server`)
//   npm run conformance -- server  the suite's everything-server directly, and through `hub serve`
//   npm run conformance -- client  hub as the client of the suite's test servers (scripts/conformance/client.mjs)
//
// Needs `npm run build` first and a Node 22 (scripts/conformance/node22.mjs says where it looks).
// No network beyond 127.0.0.1 once Node 22 is there. docs/conformance.md has the table and its reading.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFront } from './conformance/front.mjs';
import { findNode22 } from './conformance/node22.mjs';
import { runSuite, startUntil, stop, summaryOf } from './conformance/run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const EVERYTHING = join(root, 'test', 'fixtures', 'conformance', 'everything-server.mjs');
const SERVER_JS = join(root, 'dist', 'server.js');
const log = text => process.stderr.write(`${text}\n`);

/** Installs the everything-server in hub by URL, as a person would (registry_install { url }). */
async function installBehindHub(hubUrl, token, serverUrl, name) {
  const transport = new StreamableHTTPClientTransport(new URL(hubUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'conformance-setup', version: '1.0.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'registry_install', arguments: { url: serverUrl, name } });
    if (result.isError) throw new Error(`registry_install failed: ${JSON.stringify(result.content)}`);
  } finally {
    await client.close();
  }
}

function table(direct, hub) {
  const names = [...new Set([...direct.keys(), ...hub.keys()])];
  const cell = entry =>
    entry ? `${entry.failed === 0 ? '✓' : '✗'} ${entry.passed}/${entry.passed + entry.failed}` : '-';
  const width = Math.max(...names.map(name => name.length), 8);
  const lines = [`${'scenario'.padEnd(width)}  directly  through hub`];
  for (const name of names)
    lines.push(`${name.padEnd(width)}  ${cell(direct.get(name)).padEnd(8)}  ${cell(hub.get(name))}`);
  const total = map => {
    let passed = 0;
    let all = 0;
    for (const { passed: p, failed: f } of map.values()) {
      passed += p;
      all += p + f;
    }
    return `${passed}/${all}`;
  };
  lines.push(`${'checks'.padEnd(width)}  ${total(direct).padEnd(8)}  ${total(hub)}`);
  return lines.join('\n');
}

async function serverScenarios(node, picked) {
  // `-- server --scenario NAME` runs one scenario (and `--verbose` shows its checks); else all of them.
  const which = picked.length > 0 ? picked : ['--suite', 'all'];
  const started = [];
  const home = await mkdtemp(join(tmpdir(), 'hub-conformance-'));
  let front;
  try {
    const everything = startUntil(process.execPath, [EVERYTHING], {
      ready: /PORT (\d+)/,
      what: 'the everything-server',
    });
    started.push(everything.child);
    const serverUrl = `http://127.0.0.1:${(await everything.matched)[1]}/mcp`;
    const served = startUntil(process.execPath, [SERVER_JS, 'serve', '--port', '0'], {
      env: { HUB_HOME: home, HUB_LOG_LEVEL: 'info' },
      ready: /at (http:\/\/\S+\/mcp)/,
      what: 'hub-mcp serve',
    });
    started.push(served.child);
    const hubUrl = (await served.matched)[1];
    const token = (await readFile(join(home, 'http-token'), 'utf8')).trim();
    await installBehindHub(hubUrl, token, serverUrl, 'ev');
    front = await startFront({ target: hubUrl, token, prefix: 'ev_' });
    log(`everything-server ${serverUrl}; hub-mcp serve ${hubUrl} (HUB_HOME ${home}); names by ${front.url}`);
    log('suite, directly...');
    const direct = summaryOf(await runSuite(node, SUITE, ['server', '--url', serverUrl, ...which]));
    log('suite, through hub...');
    const hubOutput = await runSuite(node, SUITE, ['server', '--url', front.url, ...which]);
    if (picked.includes('--verbose')) log(hubOutput);
    const hub = summaryOf(hubOutput);
    if (hub.size === 0 || direct.size === 0)
      throw new Error(`the suite printed no summary:\n${hubOutput.slice(-3000)}`);
    console.log(table(direct, hub));
    const lost = [...direct].filter(([name, entry]) => entry.failed === 0 && hub.get(name)?.failed !== 0);
    const exitMs = await stop(served.child);
    console.log(`hub-mcp serve exited ${Math.round(exitMs)} ms after SIGTERM.`);
    if (lost.length > 0) console.log(`Pass directly but not through hub: ${lost.map(([name]) => name).join(', ')}`);
    return lost.length > 0 ? 1 : 0;
  } finally {
    await front?.close();
    for (const child of started.reverse()) await stop(child);
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function main() {
  const mode = process.argv[2] ?? 'server';
  if (!['server', 'client'].includes(mode)) {
    log(`Usage: node scripts/conformance.mjs [server|client] (got "${mode}")`);
    return 2;
  }
  if (!existsSync(SERVER_JS)) {
    log('dist/server.js is missing: run `npm run build` first.');
    return 2;
  }
  const { node, from } = findNode22(root, log);
  log(`Node 22: ${node} (${from})`);
  if (mode === 'server') return serverScenarios(node, process.argv.slice(3));
  const { clientScenarios } = await import('./conformance/client.mjs');
  const rest = process.argv.slice(3);
  const scenarios = rest.filter(arg => !arg.startsWith('--'));
  return clientScenarios({ node, suite: SUITE, root, log, scenarios, verbose: rest.includes('--verbose') });
}

process.exitCode = await main().catch(error => {
  log(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
