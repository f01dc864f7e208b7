#!/usr/bin/env node
// npm run catalog:check — is every bundled catalog entry still true? For each entry: the package
// exists on npm and is not deprecated, it has a bin, its default args hold no relative path, and
// it installs the way hub installs it, starts and lists tools. An entry that needs a secret is
// started with a dummy value: if it then fails, only a broken package (a module that cannot load)
// counts as a failure, since a real key may be what it lacks. Each started entry reports its
// largest tool (inputSchema, outputSchema, description bytes), the run ends with the largest met
// against hub's per-tool limits (proxy/child/tool-intake.ts TOOL_LIMITS), and a tool over them is a
// problem: hub would skip it or leave its outputSchema out.
// Each server starts in the sandbox hub gives it (docs/sandbox.md: bubblewrap, the same command line
// and transport hub uses), and the run says so; --no-sandbox starts them unsandboxed instead.
// Prints a table; exits 1 when an entry fails. Uses the network (npm registry), so it is not in `npm test`.
// Options: --only <package,...>   --no-start (metadata only)   --no-sandbox   --json
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { execa } from 'execa';

const dist = new URL('../dist/', import.meta.url);
const load = path => import(new URL(path, dist).href);
const [
  { catalogEntries },
  { isRelativePathArg, expandDataArgs },
  { installPackage },
  { readInstalledPackage },
  { silentLogger },
  { TOOL_LIMITS },
  { launchFor },
  { hubPaths },
  { noClient },
  { ChildProcessTransport },
  { ServerLog },
  { bwrapSetupRace },
] = await Promise.all([
  load('registry/sources/catalog.js'),
  load('registry/install/data-dir.js'),
  load('registry/npm/install.js'),
  load('registry/npm/bin.js'),
  load('core/logger.js'),
  load('proxy/child/tool-intake.js'),
  load('proxy/sandbox/launch.js'),
  load('core/paths.js'),
  load('proxy/sessions/client-side.js'),
  load('proxy/child/transport.js'),
  load('proxy/child/server-log.js'),
  load('proxy/sandbox/network.js'),
]).catch(error => {
  console.error(`catalog:check needs the build (npm run build): ${error.message}`);
  process.exit(2);
});

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    'no-start': { type: 'boolean' },
    'no-sandbox': { type: 'boolean' },
    json: { type: 'boolean' },
  },
});
const only = values.only?.split(',');
const entries = catalogEntries().filter(entry => !only || only.includes(entry.package) || only.includes(entry.name));
const START_TIMEOUT_MS = 90_000;

async function npmView(pkg) {
  const result = await execa('npm', ['view', pkg, 'name', 'version', 'deprecated', 'bin', '--json'], { reject: false });
  if (result.exitCode !== 0)
    return {
      error: (result.stderr.match(/npm error (?:code )?(E\w+|404.*)/)?.[1] ?? `exit ${result.exitCode}`).slice(0, 60),
    };
  return JSON.parse(result.stdout || '{}');
}

// A package that cannot even load: broken whatever key it is given.
const BROKEN =
  /Cannot find module|ERR_MODULE_NOT_FOUND|SyntaxError|ERR_REQUIRE_ESM|does not provide an export|Unknown (argument|option)|unknown option|Invalid (argument|tool)/i;
// A catalog arg the server no longer takes: it may still start, but the entry is stale.
const STALE =
  /flag has been removed|no longer (supported|accepted)|Unknown (argument|option)|unknown option|Invalid argument/i;

const staleLine = stderr =>
  stderr
    .split('\n')
    .find(line => STALE.test(line))
    ?.trim()
    .slice(0, 140);

const bytes = value => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));
const toolSizes = tool => ({
  name: tool.name,
  input: bytes(tool.inputSchema),
  output: bytes(tool.outputSchema),
  description: Buffer.byteLength(tool.description ?? ''),
});
const describeSize = size =>
  `${size.name} (input ${size.input} B, output ${size.output} B, description ${size.description} B)`;
// What hub would do with a tool this size (proxy/child/tool-intake.ts).
const overLimits = size =>
  [
    size.input > TOOL_LIMITS.inputSchemaBytes &&
      `${size.name}: inputSchema ${size.input} B > ${TOOL_LIMITS.inputSchemaBytes} B (hub skips it)`,
    size.output > TOOL_LIMITS.outputSchemaBytes &&
      `${size.name}: outputSchema ${size.output} B > ${TOOL_LIMITS.outputSchemaBytes} B (hub leaves it out)`,
    size.description > TOOL_LIMITS.descriptionBytes &&
      `${size.name}: description ${size.description} B > ${TOOL_LIMITS.descriptionBytes} B (hub cuts it)`,
  ].filter(Boolean);

// Installs and starts the entry as hub would: own prefix, scripts off unless the entry needs them.
async function startCheck(entry, env, raced = 0) {
  const folder = await mkdtemp(join(tmpdir(), 'catalog-check-'));
  const prefix = join(folder, 'server');
  const data = join(folder, 'data');
  try {
    await installPackage({
      dir: prefix,
      spec: entry.package,
      allowScripts: entry.scripts.length > 0 ? entry.scripts : false,
      log: silentLogger,
      timeoutMs: 300_000,
    });
    const installed = await readInstalledPackage(prefix, entry.package);
    const record = {
      name: 'checked',
      command: process.execPath,
      args: [installed.binPath, ...expandDataArgs(entry.args, data)],
      env: {},
      mode: 'command',
      installedAt: new Date().toISOString(),
      order: 1,
      autoStart: false,
      ...(values['no-sandbox'] && { settings: { sandbox: { enabled: false } } }),
    };
    const launch = await launchFor({
      record,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? folder, ...env },
      sandbox: { paths: hubPaths(join(folder, 'hub')), enabled: () => true },
      client: noClient,
    });
    sandboxNotes.add(launch.note.split('\n')[0].replace(/; writes .*/, ''));
    const logFile = join(folder, 'server.log');
    const transport = new ChildProcessTransport({ ...launch, cwd: folder, log: new ServerLog(logFile) });
    const stderrOf = () => readFileSync(logFile, 'utf8').slice(-2000);
    let stderr = '';
    const client = new Client({ name: 'catalog-check', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: START_TIMEOUT_MS });
      const { tools } = await client.listTools(undefined, { timeout: START_TIMEOUT_MS });
      stderr = stderrOf();
      const sizes = tools.map(toolSizes);
      const largest = sizes.reduce((a, b) => (b.input + b.output > a.input + a.output ? b : a), sizes[0]);
      return {
        version: installed.version,
        start: `ok, ${tools.length} tools${launch.note.startsWith('sandbox: bwrap') ? ', sandboxed' : ''}${largest ? `; largest ${describeSize(largest)}` : ''}`,
        ok: tools.length > 0,
        stale: staleLine(stderr),
        sizes,
      };
    } catch (error) {
      stderr = stderrOf();
      // bwrap's loopback race under load (src/proxy/sandbox/network.ts): hub tries again too.
      if (raced < 2 && bwrapSetupRace(logFile)) {
        await client.close().catch(() => undefined);
        return startCheck(entry, env, raced + 1);
      }
      const line =
        stderr.split('\n').find(text => BROKEN.test(text)) ??
        stderr.split('\n').find(text => /error/i.test(text)) ??
        stderr.trim().split('\n').at(-1) ??
        '';
      return {
        version: installed.version,
        start: `FAILED: ${error.message.slice(0, 60)} | ${line.trim().slice(0, 140)}`,
        ok: false,
        broken: BROKEN.test(stderr),
        stale: staleLine(stderr),
      };
    } finally {
      await client.close().catch(() => undefined);
    }
  } catch (error) {
    // Not installing is a failure whatever the entry needs to run.
    return { start: `FAILED: ${error.message.split('\n')[0].slice(0, 120)}`, ok: false, broken: true };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function check(entry) {
  const problems = [];
  const view = await npmView(entry.package);
  if (view.error) problems.push(`npm view: ${view.error}`);
  if (view.deprecated) problems.push(`deprecated: ${String(view.deprecated).slice(0, 80)}`);
  if (!view.error && !view.bin) problems.push('no bin');
  const relative = entry.args.filter(isRelativePathArg);
  if (relative.length > 0) problems.push(`relative path args: ${relative.join(' ')}`);
  const needsEnv = entry.env.filter(env => env.required).map(env => env.name);
  let start = 'skipped';
  let sizes = [];
  let version = view.version;
  if (problems.length === 0 && !values['no-start']) {
    // A key whose description gives its prefix ("(sk_...)", "starting with xoxb-") gets a dummy with that prefix.
    const prefixOf = name =>
      entry.env
        .find(env => env.name === name)
        ?.description.match(/\(([a-z]+[_-])\.\.\.\)|starting with ([a-z]+[_-])/i)
        ?.slice(1)
        .find(Boolean) ?? '';
    const dummy = Object.fromEntries(needsEnv.map(name => [name, `${prefixOf(name)}catalogcheckdummy`]));
    const started = await startCheck(entry, dummy);
    start = `${started.start}${needsEnv.length > 0 ? ` (dummy ${needsEnv.join(', ')})` : ''}`;
    version = started.version ?? version;
    // A URL in the args names a service (a database) that may not run here: like a missing key.
    const needsService = entry.args.some(arg => /^[a-z][a-z0-9+.-]*:\/\//i.test(arg));
    if (!started.ok && ((needsEnv.length === 0 && !needsService) || started.broken))
      problems.push('does not start and list tools');
    if (started.stale) problems.push(`its stderr says an arg is stale: ${started.stale}`);
    for (const size of started.sizes ?? []) problems.push(...overLimits(size));
    sizes = started.sizes ?? [];
  }
  return { package: entry.package, version: version ?? '-', start, problems, sizes };
}

// hub's transport waits on unref'd timers while a child ends (hub's own loop is always alive).
const alive = setInterval(() => undefined, 1000);
// The sandbox each server started in (one line per kind met), said at the end.
const sandboxNotes = new Set();
// Two at a time: npm installs are heavy, and the machine is shared.
const rows = [];
let next = 0;
await Promise.all(
  [0, 1].map(async () => {
    while (next < entries.length) {
      const entry = entries[next++];
      const row = await check(entry);
      rows.push(row);
      console.error(
        `${row.problems.length === 0 ? 'ok  ' : 'FAIL'} ${row.package} ${row.version}: ${row.start}${row.problems.length > 0 ? ` — ${row.problems.join('; ')}` : ''}`,
      );
    }
  }),
);
clearInterval(alive);
for (const note of sandboxNotes) console.error(`servers started in: ${note}`);
rows.sort((a, b) => entries.findIndex(e => e.package === a.package) - entries.findIndex(e => e.package === b.package));
if (values.json) console.log(JSON.stringify(rows, null, 2));
else {
  const width = Math.max(...rows.map(row => row.package.length));
  console.log(`${'package'.padEnd(width)}  ${'version'.padEnd(12)}  result  start / problems`);
  for (const row of rows)
    console.log(
      `${row.package.padEnd(width)}  ${row.version.padEnd(12)}  ${row.problems.length === 0 ? 'ok    ' : 'FAIL  '}  ${row.start}${row.problems.length > 0 ? ` — ${row.problems.join('; ')}` : ''}`,
    );
}
// The largest tools met, for setting hub's limits from what published servers need.
const all = rows.flatMap(row => row.sizes.map(size => ({ ...size, package: row.package })));
for (const [field, limit] of [
  ['input', TOOL_LIMITS.inputSchemaBytes],
  ['output', TOOL_LIMITS.outputSchemaBytes],
  ['description', TOOL_LIMITS.descriptionBytes],
]) {
  const top = all.reduce((a, b) => (a === undefined || b[field] > a[field] ? b : a), undefined);
  if (top) console.error(`largest ${field}: ${top[field]} B, ${top.name} of ${top.package} (hub's limit: ${limit} B)`);
}
process.exitCode = rows.some(row => row.problems.length > 0) ? 1 : 0;
