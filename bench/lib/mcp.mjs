import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { onCleanup } from './cleanup.mjs';

// Real SDK clients over stdio, the way an MCP client app starts a server.
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HUB_JS = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
export const EVERYTHING_JS = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
export const NAIVE_PROXY_JS = fileURLToPath(new URL('../naive-proxy.mjs', import.meta.url));
export const LEAN_PROXY_JS = fileURLToPath(new URL('../lean-proxy.mjs', import.meta.url));
export const PIPE_RELAY_JS = fileURLToPath(new URL('../pipe-relay.mjs', import.meta.url));

const baseEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
});

/** Spawn command over stdio and complete initialize; returns the client, the server pid and a closer. */
export async function connectStdio({
  command = process.execPath,
  args,
  env = {},
  name = 'hub-bench',
  cwd,
  timeoutMs = undefined,
}) {
  const transport = new StdioClientTransport({ command, args, env: { ...baseEnv(), ...env }, stderr: 'pipe', cwd });
  let stderr = '';
  // Drain stderr continuously (an unread pipe would block the server) and keep its tail for errors.
  transport.stderr?.on('data', chunk => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    unregister();
    await client.close().catch(() => undefined);
  };
  const unregister = onCleanup(close);
  try {
    await client.connect(transport, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
  } catch (error) {
    await close();
    throw new Error(
      `${command} ${args.join(' ')} did not initialize: ${error.message}${stderr ? `\nstderr: ${stderr}` : ''}`,
    );
  }
  return { client, transport, pid: transport.pid, stderrTail: () => stderr, close };
}

// In-process (HUB_SHARED=off) unless a section asks for the shared hub: every other section
// measures one hub process and its children, as before the shared hub (section sharedHub compares both).
export const spawnHub = (home, extraEnv = {}) =>
  connectStdio({ args: [HUB_JS], env: { HUB_HOME: home, HUB_SHARED: 'off', ...extraEnv } });
/** An in-process hub behind a bare Node pipe relay (pipe-relay.mjs): one process hop, nothing else. */
export const spawnRelayedHub = (home, extraEnv = {}) =>
  connectStdio({
    args: [PIPE_RELAY_JS, process.execPath, HUB_JS],
    env: { HUB_HOME: home, HUB_SHARED: 'off', ...extraEnv },
  });
export const spawnEverything = () => connectStdio({ args: [EVERYTHING_JS, 'stdio'] });
export const spawnLeanProxy = () => connectStdio({ args: [LEAN_PROXY_JS, EVERYTHING_JS, 'stdio'] });
export const spawnRawProxy = () => connectStdio({ args: [LEAN_PROXY_JS, '--raw', EVERYTHING_JS, 'stdio'] });
export const spawnNaiveProxy = () => connectStdio({ args: [NAIVE_PROXY_JS, EVERYTHING_JS, 'stdio'] });

/** The text of a tool result, or its error. */
export const textOf = result => (result?.content?.[0]?.type === 'text' ? result.content[0].text : '');

/** Call a hub tool; throws with the tool's error text when it reports isError. */
export async function callTool(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}

/** The tool names a server lists right now. */
export async function toolNames(client) {
  return (await client.listTools()).tools.map(tool => tool.name);
}
