// Official-registry entries of every kind through the built hub: a local fixture registry on
// 127.0.0.1 lists a PyPI package, a container image, an MCP bundle and a remote server.
// PyPI and container engines are not reachable here, so uvx and docker are stand-ins on PATH
// (test/fixtures/bin-standins) that record their argv and run a real stdio MCP server; the
// bundle is a real zip with a self-contained stdio MCP server in it, served with its sha256; the remote is a real
// Streamable HTTP server. With nothing on PATH, the errors name the missing runtime.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import JSZip from 'jszip';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { allLogs, startRemoteFixture, type RemoteFixture } from '../../helpers/remote-fixture.js';

const STANDINS = fixture('bin-standins');
const SECRET = 'box-token-93ac1e';

// A bundle as the MCPB format has it: manifest.json and the server it runs, zipped.
async function makeBundle(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    'manifest.json',
    JSON.stringify({
      manifest_version: '0.2',
      name: 'demo',
      version: '1.0.0',
      server: {
        type: 'node',
        entry_point: 'server/index.mjs',
        mcp_config: {
          command: 'node',
          args: ['${__dirname}/server/index.mjs'],
          env: { GREETING: '${user_config.greeting}' },
        },
      },
      user_config: { greeting: { type: 'string', default: 'hello' } },
    }),
  );
  // Self-contained, as a real bundle is (it ships its own code): no import from this repository,
  // which a sandboxed child cannot read when the repository is under /tmp (a fresh clone in CI).
  zip.file(
    'server/index.mjs',
    `import { createInterface } from 'node:readline';
const send = message => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const tool = { name: 'greet', description: 'Greets', inputSchema: { type: 'object', properties: {} } };
createInterface({ input: process.stdin }).on('line', line => {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) return;
  if (method === 'initialize')
    return send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bundle', version: '1.0.0' } } });
  if (method === 'tools/list') return send({ id, result: { tools: [tool] } });
  if (method === 'tools/call') return send({ id, result: { content: [{ type: 'text', text: process.env.GREETING + ' from the bundle' }] } });
  if (method === 'ping') return send({ id, result: {} });
  send({ id, error: { code: -32601, message: 'Method not found: ' + method } });
});
`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

let base = '';
let remote: RemoteFixture;
let registry: ReturnType<typeof createServer>;
let bundle: Buffer;

function entries() {
  const sha = createHash('sha256').update(bundle).digest('hex');
  const server = (name: string, body: Record<string, unknown>) => ({
    server: { name, description: `${name} fixture`, version: '1.0.0', ...body },
  });
  return [
    server('io.github.example/kinds-time', {
      packages: [
        {
          registryType: 'pypi',
          identifier: 'mcp-server-time',
          version: '1.2.0',
          runtimeHint: 'uvx',
          runtimeArguments: [{ type: 'named', name: '--python', value: '3.12' }],
          packageArguments: [{ type: 'named', name: '--local-timezone', default: 'UTC' }],
          environmentVariables: [
            { name: 'TIME_FORMAT', isRequired: true, choices: ['12h', '24h'] },
            { name: 'TIME_LOCALE', default: 'en' },
          ],
        },
      ],
    }),
    server('io.github.example/kinds-box', {
      packages: [
        {
          registryType: 'oci',
          identifier: 'ghcr.io/example/box',
          version: '2.0.0',
          runtimeArguments: [{ type: 'named', name: '--network', value: 'none' }],
          packageArguments: [{ type: 'positional', value: 'serve' }],
          environmentVariables: [{ name: 'BOX_TOKEN', isRequired: true, isSecret: true }],
        },
      ],
    }),
    server('io.github.example/kinds-bundle', {
      packages: [{ registryType: 'mcpb', identifier: `${base}/bundles/demo.mcpb`, fileSha256: sha }],
    }),
    server('io.github.example/kinds-badsum', {
      packages: [{ registryType: 'mcpb', identifier: `${base}/bundles/demo.mcpb`, fileSha256: '0'.repeat(64) }],
    }),
    // What hub cannot run: a .NET tool, and an npm package that serves HTTP on this machine.
    server('io.github.example/kinds-elsewhere', {
      packages: [
        { registryType: 'nuget', identifier: 'Example.Mcp', version: '1.0.0' },
        {
          registryType: 'npm',
          identifier: 'http-only-mcp',
          version: '1.0.0',
          transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' },
        },
      ],
    }),
    server('com.example/kinds-remote', {
      remotes: [
        {
          type: 'streamable-http',
          url: remote.url,
          headers: [{ name: 'X-Api-Key', isRequired: true, isSecret: true }],
        },
      ],
    }),
  ];
}

beforeAll(async () => {
  bundle = await makeBundle();
  registry = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/bundles/demo.mcpb') return void res.writeHead(200).end(bundle);
    if (url.pathname !== '/v0.1/servers') return void res.writeHead(404).end();
    const search = url.searchParams.get('search') ?? '';
    const servers = entries().filter(entry => entry.server.name.includes(search));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ servers, metadata: { count: servers.length } }));
  });
  await new Promise<void>(resolve => registry.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(registry.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>(resolve => registry.close(() => resolve())));

async function hubWith(home: string, path: string): Promise<{ hub: HubSession; tmp: string }> {
  const tmp = await mkdtemp(join(tmpdir(), 'hub-standin-'));
  const hub = await spawnHub(home, { env: { HUB_REGISTRY_URL: base, PATH: path, TMPDIR: tmp } });
  return { hub, tmp };
}

// A stand-in run sandboxed logs in its data folder's state folder (XDG_STATE_HOME), else in TMPDIR.
const argvOf = async (tmp: string, name: string, dataDir?: string) =>
  (await readFile(join(dataDir ? join(dataDir, '.local/state') : tmp, `standin-${name}.jsonl`), 'utf8'))
    .trim()
    .split('\n')
    .map(line => JSON.parse(line) as { argv: string[]; env: Record<string, boolean> });

const structured = (result: CallToolResult) => result.structuredContent as Record<string, unknown>;

describe('registry entries of every kind', () => {
  test('search gives each kind, whether it runs here, and its install arguments; pypi, oci, mcpb and remote install and run', async () => {
    remote = await startRemoteFixture('remote-server.mjs', ['--require-header', `X-Api-Key=${SECRET}`]);
    const home = await makeHubHome();
    const { hub, tmp } = await hubWith(home, [STANDINS, dirname(process.execPath), process.env.PATH].join(delimiter));
    const outputs: string[] = [];
    try {
      const found = structured(await hub.call('registry.search', { query: 'kinds', sources: ['official'] }));
      const results = found.results as {
        kind: string;
        runnable: boolean;
        runtime?: string;
        install: Record<string, unknown>;
      }[];
      // The nuget package is left out of search (no kind hub knows); the HTTP-only npm one is shown as not runnable.
      expect(results.map(result => result.kind).sort()).toEqual(['mcpb', 'npm', 'oci', 'pypi', 'remote']);
      expect(results.find(result => result.kind === 'npm')).toMatchObject({
        runnable: false,
        needs: 'a launcher for a local streamable-http server, which hub does not run yet',
      });
      expect(results.find(result => result.kind === 'pypi')).toMatchObject({
        runnable: true,
        runtime: 'uvx',
        install: { official: 'io.github.example/kinds-time', kind: 'pypi' },
      });
      expect(results.find(result => result.kind === 'oci')).toMatchObject({ runnable: true, runtime: 'docker' });

      // pypi through uvx: arguments mapped, a required variable with choices.
      const waiting = await hub.call('registry.install', { official: 'io.github.example/kinds-time', name: 'time' });
      expect(structured(waiting)).toMatchObject({ state: 'stopped', missingEnv: ['TIME_FORMAT'] });
      await hub.call('registry.uninstall', { name: 'time' });
      const wrong = await hub.call('registry.install', {
        official: 'io.github.example/kinds-time',
        name: 'time',
        env: { TIME_FORMAT: '25h' },
      });
      expect(textOf(wrong)).toBe('INVALID_INPUT: Field "env" TIME_FORMAT must be one of "12h", "24h".');
      const time = await hub.call('registry.install', {
        official: 'io.github.example/kinds-time',
        name: 'time',
        env: { TIME_FORMAT: '24h' },
      });
      expect(structured(time), textOf(time)).toMatchObject({ state: 'ready' });
      expect((await argvOf(tmp, 'uvx', join(home, 'data', 'time'))).at(-1)?.argv).toEqual([
        '--python',
        '3.12',
        'mcp-server-time@1.2.0',
        '--local-timezone',
        'UTC',
      ]);
      expect(textOf(await hub.call('time_env', { key: 'TIME_LOCALE' }))).toContain('en');

      // oci through docker run -i --rm: the secret passes by name, never on the command line.
      const box = await hub.call('registry.install', {
        official: 'io.github.example/kinds-box',
        name: 'box',
        env: { BOX_TOKEN: SECRET },
      });
      outputs.push(JSON.stringify(box));
      expect(structured(box), textOf(box)).toMatchObject({ state: 'ready' });
      const run = (await argvOf(tmp, 'docker')).at(-1);
      expect(run?.argv).toEqual([
        'run',
        '-i',
        '--rm',
        '--network',
        'none',
        '-e',
        'BOX_TOKEN',
        'ghcr.io/example/box:2.0.0',
        'serve',
      ]);
      expect(run?.env).toEqual({ BOX_TOKEN: true });

      // mcpb: downloaded, checked, unpacked, run as its manifest says.
      const demo = await hub.call('registry.install', { official: 'io.github.example/kinds-bundle', name: 'demo' });
      expect(structured(demo), textOf(demo)).toMatchObject({ state: 'ready' });
      expect(textOf(await hub.call('demo_greet'))).toBe('hello from the bundle');
      expect(existsSync(join(home, 'servers', 'demo', 'manifest.json'))).toBe(true);
      await hub.call('registry.uninstall', { name: 'demo' });
      expect(existsSync(join(home, 'servers', 'demo'))).toBe(false);
      const bad = await hub.call('registry.install', { official: 'io.github.example/kinds-badsum', name: 'bad' });
      expect(textOf(bad)).toMatch(/^INSTALL_FAILED: The bundle .* does not match the registry's sha256/);
      expect(existsSync(join(home, 'servers', 'bad'))).toBe(false);

      // remote: its header is a secret given in env under the header's name.
      const docs = await hub.call('registry.install', {
        official: 'com.example/kinds-remote',
        name: 'docs',
        env: { X_API_KEY: SECRET },
      });
      outputs.push(JSON.stringify(docs));
      expect(structured(docs), textOf(docs)).toMatchObject({ state: 'ready' });
      expect(textOf(await hub.call('docs_header_ok'))).toBe('true');
      outputs.push(JSON.stringify(await hub.call('registry.list')));
    } finally {
      await hub.close();
    }
    for (const output of outputs) expect(output).not.toContain(SECRET);
    expect(await allLogs(home)).not.toContain(SECRET);
  });

  test('with nothing on PATH: search says what each kind needs; install names the runtime and leaves nothing', async () => {
    remote = await startRemoteFixture('remote-server.mjs');
    const home = await makeHubHome();
    const empty = join(home, 'empty-bin');
    await mkdir(empty);
    const { hub } = await hubWith(home, empty);
    try {
      const found = structured(await hub.call('registry.search', { query: 'kinds', sources: ['official'] }));
      const results = found.results as { kind: string; runnable: boolean; needs?: string }[];
      expect(results.find(result => result.kind === 'pypi')).toMatchObject({
        runnable: false,
        needs: expect.stringMatching(/uvx .*docs\.astral\.sh.* or pipx/),
      });
      expect(results.find(result => result.kind === 'oci')).toMatchObject({
        runnable: false,
        needs: expect.stringMatching(/docker .* or podman/),
      });
      const time = await hub.call('registry.install', {
        official: 'io.github.example/kinds-time',
        env: { TIME_FORMAT: '12h' },
      });
      expect(textOf(time)).toMatch(
        /^INSTALL_FAILED: Server "io.github.example\/kinds-time" is a Python package \(PyPI\) and needs uvx \(install uv: https:\/\/docs\.astral\.sh.*\) or pipx .* which is not on PATH/,
      );
      const box = await hub.call('registry.install', { official: 'io.github.example/kinds-box', kind: 'oci' });
      expect(textOf(box)).toMatch(/^INSTALL_FAILED: .* is a container image and needs docker .* or podman/);
      // Nothing it can run: each offer named, with why.
      const elsewhere = await hub.call('registry.install', { official: 'io.github.example/kinds-elsewhere' });
      expect(textOf(elsewhere)).toContain(
        'NOT_FOUND: Server "io.github.example/kinds-elsewhere" offers no package or remote hub can run; it offers: ' +
          'nuget package Example.Mcp (hub does not run nuget packages); ' +
          'npm package http-only-mcp served over streamable-http on this machine (hub runs local packages over stdio only).',
      );
      const list = structured(await hub.call('registry.list'));
      expect(list.servers).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
