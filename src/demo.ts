// `npm run demo`: a real MCP client session against hub (dist/server.js over stdio) in a
// temporary HUB_HOME, narrated for a newcomer. Every step is a real tools/call; the temp
// folder is removed and nothing is left running. HUB_OFFLINE=1 keeps it off the network.
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { silentLogger } from './core/logger.js';
import { stopSharedHub } from './hub-link/control.js';
import { sharedHubPaths } from './hub-link/paths.js';
import { cut } from './core/clip.js';

type Structured = Record<string, unknown>;

const NEEDED_TOOLS = [
  'registry.search',
  'registry.install',
  'registry.list',
  'start_process',
  'list_processes',
  'get_process_logs',
  'kill_process',
  'get_free_port',
];
const INSTALL_TIMEOUT_MS = 90_000;
// The dev server the demo starts: logs one line per request, like any real one.
const WEB_SERVER = `const http = require('node:http');
const port = Number(process.env.PORT);
http.createServer((request, response) => {
  console.log(new Date().toISOString() + ' ' + request.method + ' ' + request.url);
  response.end('hello from a process started by hub\\n');
}).listen(port, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + port));`;

const say = (text = ''): void => void process.stdout.write(`${text}\n`);
const step = (n: number, text: string): void => say(`\n${n}. ${text}`);
const detail = (text: string): void => say(`   ${text}`);
const textOf = (result: CallToolResult): string =>
  result.content.map(block => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
const firstLines = (text: string, count: number): string[] => text.split('\n').filter(Boolean).slice(0, count);

// One line of a tool's text answer: JSON squeezed, long text cut.
function compact(text: string): string {
  let line = text.trim();
  try {
    line = JSON.stringify(JSON.parse(line));
  } catch {
    line = line.split('\n')[0] ?? '';
  }
  return cut(line, 110);
}

class DemoError extends Error {}

function everythingServerPath(): string {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  } catch {
    throw new DemoError(
      'the bundled @modelcontextprotocol/server-everything (a devDependency) is not installed: run the demo from a clone after npm install',
    );
  }
}

async function main(): Promise<void> {
  const offline = Boolean(process.env.HUB_OFFLINE);
  const home = await mkdtemp(join(tmpdir(), 'hub-demo-'));
  const serverJs = fileURLToPath(new URL('./server.js', import.meta.url));
  let stderrTail = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverJs],
    env: { ...(process.env as Record<string, string>), HUB_HOME: home, HUB_LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => void (stderrTail = (stderrTail + chunk.toString()).slice(-2000)));
  const client = new Client({ name: 'hub-demo', version: '1.0.0' });
  let processId: string | undefined;

  // A hub tool: its result must be a success with structuredContent (docs/tools.md "Tools").
  const call = async (
    name: string,
    args: Structured = {},
    options: { timeout?: number; signal?: AbortSignal } = {},
  ): Promise<{ structured: Structured; text: string }> => {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeout ?? 60_000,
      ...(options.signal && { signal: options.signal }),
    })) as CallToolResult;
    if (result.isError) throw new DemoError(`${name} failed: ${textOf(result)}`);
    if (!result.structuredContent) throw new DemoError(`${name} returned no structuredContent`);
    return { structured: result.structuredContent, text: textOf(result) };
  };

  try {
    say('hub demo: a real MCP client talking to hub over stdio, the way Claude, Cursor or VS Code do.');
    say(
      `Everything happens in a temporary HUB_HOME (${home}); it is deleted at the end.${offline ? ' HUB_OFFLINE is set: no network.' : ''}`,
    );

    step(1, `Connect: start "node dist/server.js" and do the MCP handshake.`);
    await client.connect(transport);
    const info = client.getServerVersion();
    detail(`Connected to ${info?.name ?? 'hub'} ${info?.version ?? ''}.`);

    step(2, 'tools/list: what hub offers any client.');
    const names = (await client.listTools()).tools.map(tool => tool.name);
    detail(`${names.length} tools: ${names.join(', ')}`);
    // hub lists underscore names by default (HUB_TOOL_NAMES=dotted keeps dots): use what it lists.
    const dots = names.includes('registry.search');
    const n = (dotted: string): string => (dots ? dotted : dotted.replaceAll('.', '_'));
    const missing = NEEDED_TOOLS.map(n).filter(name => !names.includes(name));
    if (missing.length > 0)
      throw new DemoError(`this hub does not offer ${missing.join(', ')} yet, so the demo cannot go on`);

    step(3, `${n('registry.search')} { query: "memory" }: find MCP servers to install.`);
    const search = await call(n('registry.search'), {
      query: 'memory',
      limit: 3,
      ...(offline && { sources: ['catalog'] }),
    });
    const results = search.structured.results as { name: string; package: string; description: string }[];
    for (const result of results) detail(`- ${result.name}: ${result.package} (${result.description.slice(0, 70)})`);
    for (const source of search.structured.sources as { source: string; ok: boolean; error?: string }[]) {
      if (!source.ok)
        detail(
          `(source ${source.source} did not answer: ${(source.error ?? 'unknown').replace(/\.$/, '')}; the others still did)`,
        );
    }

    step(4, `${n('registry.install')}: add a server; its tools appear next to hub's own.`);
    let server = 'everything';
    let proxied = { tool: n('everything.echo'), args: { message: 'hello through hub' } as Structured };
    if (!offline) {
      detail(`Installing @modelcontextprotocol/server-memory from npm (up to ${INSTALL_TIMEOUT_MS / 1000} s)...`);
      try {
        const installed = await call(
          n('registry.install'),
          { package: '@modelcontextprotocol/server-memory', name: 'memory' },
          { timeout: INSTALL_TIMEOUT_MS, signal: AbortSignal.timeout(INSTALL_TIMEOUT_MS) },
        );
        detail(
          `Installed memory ${String(installed.structured.version ?? '')}: ${(installed.structured.tools as string[]).length} tools, state ${String(installed.structured.state)}.`,
        );
        server = 'memory';
        proxied = {
          tool: n('memory.create_entities'),
          args: { entities: [{ name: 'hub', entityType: 'tool', observations: ['installed by the demo'] }] },
        };
      } catch (error) {
        detail(
          `npm install did not work here (${(error as Error).message.split('\n')[0]}); using the bundled server instead.`,
        );
      }
    }
    if (server === 'everything') {
      const path = everythingServerPath();
      detail(`Registering the bundled everything server: ${n('registry.install')} { command: node, args: [${path}] }`);
      const installed = await call(n('registry.install'), {
        command: process.execPath,
        args: [path, 'stdio'],
        name: 'everything',
      });
      detail(
        `Registered everything: ${(installed.structured.tools as string[]).length} tools, state ${String(installed.structured.state)}.`,
      );
    }
    const after = (await client.listTools()).tools
      .map(tool => tool.name)
      .filter(name => name.startsWith(`${server}.`) || name.startsWith(`${server}_`));
    detail(`tools/list now also shows ${after.length} ${server} tools, e.g. ${after.slice(0, 3).join(', ')}`);

    step(5, `Call a proxied tool: ${proxied.tool}. Hub forwards it to the ${server} server.`);
    const answer = (await client.callTool({ name: proxied.tool, arguments: proxied.args })) as CallToolResult;
    if (answer.isError) throw new DemoError(`${proxied.tool} failed: ${textOf(answer)}`);
    detail(`< ${compact(textOf(answer))}`);
    const listed = await call(n('registry.list'));
    const summary = (listed.structured.servers as { name: string; state: string; calls: number }[]).find(
      entry => entry.name === server,
    );
    detail(`${n('registry.list')}: ${server} is ${summary?.state ?? '?'} after ${summary?.calls ?? 0} call(s).`);

    step(6, 'get_free_port: pick a port no other hub process will hand out for 30 s.');
    const port = (await call('get_free_port', { preferred: 4321 })).structured.port as number;
    detail(`Port ${port}.`);

    step(
      7,
      `start_process with wait_for { port: ${port} }: start a small web server, detached, and return once it listens.`,
    );
    const started = await call('start_process', {
      command: process.execPath,
      args: ['-e', WEB_SERVER],
      env: { PORT: String(port) },
      name: 'demo-web',
      tags: ['demo'],
      wait_for: { port, timeout_ms: 15_000 },
    });
    const record = started.structured.process as { id: string; pid: number; status: string; logFile: string };
    processId = record.id;
    detail(
      `Started ${record.id} (pid ${record.pid}): ready=${String(started.structured.ready)} (${String(started.structured.reason)}) after ${String(started.structured.waited_ms)} ms.`,
    );
    detail(`Its output goes to ${record.logFile}; it would keep running if hub or the client restarted.`);

    step(8, `Fetch http://127.0.0.1:${port}/ from the demo (a client of the web server).`);
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    detail(`< ${body.trim()}`);

    step(9, 'list_processes and get_process_logs: what is running and what it printed.');
    const list = await call('list_processes', { tag: 'demo' });
    detail(
      `${String(list.structured.running)} running: ${(list.structured.processes as { id: string; name?: string; status: string }[]).map(entry => `${entry.name ?? entry.id} (${entry.status})`).join(', ')}`,
    );
    const logs = await call('get_process_logs', { id: record.id });
    for (const line of firstLines(logs.text, 5)) detail(`| ${line}`);
    const cursor = logs.structured.next_cursor as number;
    detail(`next_cursor = ${cursor}: pass it back to read only what is new.`);
    await fetch(`http://127.0.0.1:${port}/again`).then(response => response.text());
    const newer = await call('get_process_logs', { id: record.id, cursor });
    detail(
      `After one more request, get_process_logs { cursor: ${cursor} } returns ${String(newer.structured.lines)} new line(s):`,
    );
    for (const line of firstLines(newer.text, 5)) detail(`| ${line}`);

    step(10, 'kill_process: stop it and everything it spawned (its whole process group).');
    const killed = await call('kill_process', { id: record.id });
    processId = undefined;
    detail(
      `${record.id} is ${String((killed.structured.process as { status: string }).status)} (signal ${String(killed.structured.signal_sent ?? 'none')}, escalated: ${String(killed.structured.escalated)}).`,
    );

    say(
      '\nDone: search, install, a proxied call, and a dev server started, followed, and stopped, all through one MCP server.',
    );
    say(
      'Add hub to your own client with: hub-mcp config <claude-code|claude-desktop|cursor|vscode|codex|windsurf|gemini> --write',
    );
  } catch (error) {
    process.exitCode = 1;
    process.stderr.write(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    if (stderrTail.trim()) process.stderr.write(`hub's stderr (last lines):\n${stderrTail.trim()}\n`);
  } finally {
    if (processId) await call('kill_process', { id: processId, grace_ms: 1_000 }).catch(() => undefined);
    await client.close().catch(() => undefined);
    // The demo's hub attached to a shared hub for its temporary HUB_HOME: stopped with it.
    await stopSharedHub(sharedHubPaths(home), silentLogger, 'demo finished').catch(() => undefined);
    await rm(home, { recursive: true, force: true });
  }
}

await main();
