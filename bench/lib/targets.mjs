import { addServers, everythingRecord } from './home.mjs';
import {
  callTool,
  EVERYTHING_JS,
  spawnEverything,
  spawnHub,
  spawnLeanProxy,
  spawnNaiveProxy,
  spawnRawProxy,
  toolNames,
} from './mcp.mjs';
import { descendants } from './proc.mjs';

// What the proxy section calls echo on: the server itself, the reference proxies, and hub.
// target() wraps any stdio connection (bench/ab.mjs uses it for two hub builds).

const ECHO_ARGS = { message: 'hello from the hub bench' };

export function target(name, connection, tool, tree) {
  const { client } = connection;
  return {
    name,
    connection,
    pid: connection.pid,
    call: () => client.callTool({ name: tool, arguments: ECHO_ARGS }),
    // The processes whose CPU counts for this target (the proxy and the child it started).
    pids: () => (tree ? [connection.pid, ...descendants(connection.pid)] : [connection.pid]),
  };
}

export const directTarget = async () => target('direct', await spawnEverything(), 'echo', false);

export const leanTarget = async () => target('lean', await spawnLeanProxy(), 'everything.echo', true);

export const rawTarget = async () => target('raw', await spawnRawProxy(), 'everything.echo', true);

export const naiveTarget = async () => target('naive', await spawnNaiveProxy(), 'everything.echo', true);

/**
 * hub with server-everything registered as `everything` in command mode: through
 * registry.install when hub has it, else by writing the store record hub would write.
 */
export async function registerEverything(home, everythingTools, names = ['everything']) {
  const hub = await spawnHub(home);
  try {
    // hub lists its tools as registry_install (underscore, the default) or registry.install (dotted).
    const install = (await toolNames(hub.client)).find(n => n === 'registry_install' || n === 'registry.install');
    if (install) {
      try {
        for (const name of names)
          await callTool(hub.client, install, {
            command: process.execPath,
            args: [EVERYTHING_JS, 'stdio'],
            name,
          });
      } catch (error) {
        throw new Unavailable(error.message.split('\n')[0]);
      }
      return 'registry.install';
    }
  } finally {
    await hub.close();
  }
  await addServers(
    home,
    names.map((name, index) => everythingRecord(name, index + 1, everythingTools)),
  );
  return 'store record';
}

export async function hubTarget(home, extraEnv = {}) {
  const connection = await spawnHub(home, extraEnv);
  const tools = await toolNames(connection.client);
  // Listed as everything_echo by default; hub takes a call in either spelling.
  if (!tools.includes('everything_echo') && !tools.includes('everything.echo')) {
    await connection.close();
    throw new Unavailable(`hub does not list everything.echo yet (it lists ${tools.length} tools)`);
  }
  const result = await connection.client
    .callTool({ name: 'everything.echo', arguments: ECHO_ARGS })
    .catch(error => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
  if (result.isError) {
    await connection.close();
    throw new Unavailable(`everything.echo through hub failed: ${result.content?.[0]?.text ?? 'no text'}`);
  }
  return target('hub', connection, 'everything.echo', true);
}

/** A feature hub does not have yet: the section reports it instead of failing the run. */
export class Unavailable extends Error {}
