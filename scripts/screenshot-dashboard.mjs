#!/usr/bin/env node
// The dashboard pictures in the docs, taken the way a person sees them: a temporary HUB_HOME, an
// MCP client that registers the bundled everything server, calls it and starts three processes
// through hub, then `hub ui` and Debian's Chromium (playwright-core, no browser download).
//   npm run build && node scripts/screenshot-dashboard.mjs      writes docs/images/dashboard*.png
// HUB_CHROMIUM names another Chromium. Everything it starts is stopped, and the HUB_HOME removed.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverJs = join(root, 'dist/server.js');
const images = join(root, 'docs/images');
const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

// A dev server that logs one line per request, as the demo's does, and a watcher that logs a line
// every few seconds (in colour, which the page renders).
const WEB = `const http = require('node:http');
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
http.createServer((req, res) => { console.log(new Date().toISOString().slice(11, 19) + ' ' + req.method + ' ' + req.url + ' 200'); res.end('ok'); })
  .listen(port, '127.0.0.1', () => console.log('dev server listening on http://localhost:' + port + '/'));`;
const WATCH = `let n = 0; const tick = () => console.log('\\u001b[32mbuild ' + ++n + ' done\\u001b[0m, watching src/ for changes'); tick(); setInterval(tick, 4000);`;

const home = await mkdtemp(join(tmpdir(), 'hub-shots-'));
// A small project for the processes to run in, so their command lines read like a person's.
const app = join(home, 'app');
await mkdir(app);
await writeFile(join(app, 'dev-server.js'), WEB);
await writeFile(join(app, 'test-watch.js'), WATCH);
await writeFile(join(app, 'migrate.js'), "console.error('migrate: database is locked'); process.exit(1);");
const env = { ...process.env, HUB_HOME: home, HUB_LOG_LEVEL: 'warn', DISPLAY: '', WAYLAND_DISPLAY: '' };
const hubCli = (...args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverJs, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', chunk => (out += chunk));
    child.on('error', reject);
    child.on('exit', code => (code === 0 ? resolve(out) : reject(new Error(`hub ${args.join(' ')} exited ${code}`))));
  });

const client = new Client({ name: 'claude-code', version: '2.1.0' });
let browser;
let ui;
try {
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverJs], env }));
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };
  await call('registry_install', { command: process.execPath, args: [everything, 'stdio'], name: 'everything' });
  for (let i = 1; i <= 5; i++) await call('everything_get-sum', { a: i, b: i });
  await call('everything_echo', { message: 'hello through hub' });

  const { port } = await call('get_free_port', { preferred: [5173] });
  await call('start_process', {
    command: `node dev-server.js --port ${port}`,
    cwd: app,
    name: 'web',
    ports: [port],
    tags: ['app'],
    wait_for: { port },
  });
  for (const path of ['/', '/src/main.ts', '/assets/app.js', '/api/todos'])
    await fetch(`http://127.0.0.1:${port}${path}`);
  await call('start_process', {
    command: 'node test-watch.js',
    cwd: app,
    name: 'tests',
    tags: ['app'],
    wait_for: 'watching',
  });
  await call('start_process', { command: 'node migrate.js', cwd: app, name: 'migrate' });

  ui = spawn(process.execPath, [serverJs, 'ui', '--no-open'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const login = await new Promise((resolve, reject) => {
    createInterface({ input: ui.stdout }).once('line', resolve);
    ui.once('exit', code => reject(new Error(`hub ui exited ${code} before printing its URL`)));
  });

  browser = await chromium.launch({
    executablePath: process.env.HUB_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 640 } });
  await page.goto(login);
  await page.locator('tr[data-process="web"]').waitFor({ timeout: 15_000 });
  await page.locator('tr[data-process="migrate"]').waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Show the log of web' }).click();
  await page.getByRole('log').getByText('/api/todos').waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(images, 'dashboard.png') });

  await page.getByRole('tab', { name: /MCP servers/ }).click();
  await page.getByText('everything').first().click();
  await page.getByText('get-sum').first().waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(images, 'dashboard-servers.png') });
  process.stdout.write(`wrote ${join(images, 'dashboard.png')} and dashboard-servers.png\n`);
} finally {
  await browser?.close();
  if (ui && ui.exitCode === null) ui.kill('SIGTERM');
  await client.close().catch(() => undefined);
  // The processes, then the shared hub (its child servers close with it).
  await hubCli('kill', 'web', 'tests', 'migrate', '--remove').catch(() => undefined);
  await hubCli('stop').catch(() => undefined);
  await rm(home, { recursive: true, force: true });
}
