import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { onCleanup, tempHome } from '../lib/cleanup.mjs';
import { HUB_JS, spawnHub } from '../lib/mcp.mjs';
import { cpuNs, rssKb } from '../lib/proc.mjs';
import { round, since, summary } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// Streamable HTTP (issue 15 item 4): SESSIONS clients at once on one `hub serve`, each calling
// hub's own list_processes CALLS times in a row, all sessions together: throughput, per-call
// p50/p99 and the serving hub's RSS and CPU. The reference, in the same run: the same sessions
// and calls over stdio, one hub process per session (what clients do without a shared hub).
// hub's own tool, not a proxied one: until sessions share children (issue 15 item 1) every HTTP
// session would start its own child, and the figure would measure 50 child servers.

const TOOL = 'list_processes';
const mb = kb => round(kb / 1024, 1);

async function startServe(home) {
  const child = spawn(process.execPath, [HUB_JS, 'serve', '--port', '0'], {
    env: { ...process.env, HUB_HOME: home, HUB_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const unregister = onCleanup(async () => void child.kill('SIGKILL'));
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  const url = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /at (http:\/\/\S+\/mcp)/.exec(output)?.[1];
      if (!found) return;
      clearInterval(timer);
      resolve(found);
    }, 20);
    child.once('exit', code => {
      clearInterval(timer);
      reject(new Error(`hub serve exited ${code}: ${output}`));
    });
  });
  const exited = new Promise(resolve => child.once('exit', resolve));
  return {
    pid: child.pid,
    url,
    token: readFileSync(join(home, 'http-token'), 'utf8').trim(),
    async stop() {
      child.kill('SIGINT');
      const code = await exited;
      unregister();
      return code;
    },
  };
}

async function connectHttp(url, token, i) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: `bench-http-${i}`, version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const close = () => client.close().catch(() => undefined);
  onCleanup(close);
  return { client, close };
}

// A few at a time: 50 initializes at once on 2 cores measure the scheduler, not hub.
async function inBatches(count, size, make) {
  const out = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, k) => make(start + k));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** Every session calls the tool `calls` times in a row, all sessions together. */
async function load(sessions, calls) {
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async ({ client }) => {
      for (let k = 0; k < calls; k++) {
        const t0 = performance.now();
        const result = await client.callTool({ name: TOOL, arguments: {} });
        if (result.isError) throw new Error(`${TOOL} failed: ${JSON.stringify(result.content)}`);
        latencies.push(since(t0));
      }
    }),
  );
  const wallMs = since(started);
  return { ...summary(latencies), wallMs, throughput: (sessions.length * calls) / (wallMs / 1000) };
}

export async function httpSection({ quick, smoke, log }) {
  const sessionsWanted = smoke ? 3 : quick ? 10 : 50;
  const calls = smoke ? 2 : quick ? 5 : 20;
  const home = await tempHome();

  const served = await startServe(home);
  const t0 = performance.now();
  const http = await inBatches(sessionsWanted, 10, i => connectHttp(served.url, served.token, i));
  const httpConnectMs = since(t0);
  await load(http, 1); // warm-up: each session's first call
  const cpuBefore = cpuNs(served.pid);
  const httpRun = await load(http, calls);
  const httpCpuPerCallUs = (cpuNs(served.pid) - cpuBefore) / 1000 / (sessionsWanted * calls);
  const httpRssKb = rssKb(served.pid);
  log(
    `  http: ${sessionsWanted} sessions, ${round(httpRun.throughput, 0)} calls/s, p99 ${round(httpRun.p99, 1)} ms, hub ${mb(httpRssKb)} MB`,
  );
  await Promise.all(http.map(session => session.close()));
  const serveExit = await served.stop();

  const t1 = performance.now();
  const stdio = await inBatches(sessionsWanted, 5, () => spawnHub(home));
  const stdioConnectMs = since(t1);
  await load(stdio, 1);
  const stdioCpuBefore = stdio.reduce((sum, hub) => sum + cpuNs(hub.pid), 0);
  const stdioRun = await load(stdio, calls);
  const stdioCpuPerCallUs =
    (stdio.reduce((sum, hub) => sum + cpuNs(hub.pid), 0) - stdioCpuBefore) / 1000 / (sessionsWanted * calls);
  const stdioRssKb = stdio.reduce((sum, hub) => sum + rssKb(hub.pid), 0);
  log(
    `  stdio: ${sessionsWanted} hubs, ${round(stdioRun.throughput, 0)} calls/s, p99 ${round(stdioRun.p99, 1)} ms, ${mb(stdioRssKb)} MB in all`,
  );
  await Promise.all(stdio.map(hub => hub.close()));

  const label = `${sessionsWanted} sessions × ${calls} ${TOOL}`;
  const rows = [
    row('http', `HTTP throughput, ${label} (calls/s)`, round(httpRun.throughput, 0), {
      label: `stdio, one hub per session`,
      value: round(stdioRun.throughput, 0),
    }),
    row('http', 'HTTP per-call p50 / p99 (ms)', `${round(httpRun.p50, 1)} / ${round(httpRun.p99, 1)}`, {
      label: `stdio p50 / p99 ${round(stdioRun.p50, 1)} / ${round(stdioRun.p99, 1)}`,
      value: null,
    }),
    row('http', 'HTTP p99 per call (ms)', round(httpRun.p99, 1), { label: 'stdio p99', value: round(stdioRun.p99, 1) }),
    row('http', `hub serve RSS with ${sessionsWanted} HTTP sessions (MB)`, mb(httpRssKb), {
      label: `${sessionsWanted} stdio hubs in all`,
      value: mb(stdioRssKb),
    }),
    row('http', 'hub CPU per call (µs)', round(httpCpuPerCallUs, 0), {
      label: 'stdio hubs',
      value: round(stdioCpuPerCallUs, 0),
    }),
    row('http', `${sessionsWanted} sessions connected (ms)`, round(httpConnectMs, 0), {
      label: `${sessionsWanted} stdio hubs spawned`,
      value: round(stdioConnectMs, 0),
    }),
  ];
  return {
    section: {
      status: serveExit === 0 ? 'ok' : 'partial',
      plan: `${sessionsWanted} Streamable HTTP sessions on one hub serve (connected 10 at a time), 1 warm-up call each, then ${calls} sequential ${TOOL} calls per session with every session at once; the same over stdio with one hub per session (spawned 5 at a time)`,
      http: { ...httpRun, rssKb: httpRssKb, cpuPerCallUs: httpCpuPerCallUs, connectMs: httpConnectMs, serveExit },
      stdio: { ...stdioRun, rssKb: stdioRssKb, cpuPerCallUs: stdioCpuPerCallUs, connectMs: stdioConnectMs },
    },
    rows,
  };
}
