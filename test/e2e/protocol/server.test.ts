// The built hub over stdio: handshake, tool names in both modes, error shapes, prompt exit.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, test } from 'vitest';
import { HUB_TOOL_NAMES } from '../../../src/core/exposed-names.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub } from '../../helpers/hub.js';

describe('stdio server', () => {
  test('lists underscore names to every client (whatever its name) by default, dotted only when asked', async () => {
    const home = await makeHubHome();
    // mastra reports the user's config key as its client name: names must not depend on it.
    // In-process on purpose: HUB_TOOL_NAMES differs per entry on one HUB_HOME, and the shared
    // hub's sessions take their entry's env only once createSession honours it (issue 15, helper S).
    const off = { HUB_SHARED: 'off' };
    const plain = await spawnHub(home, { clientName: 'my-tools', env: off });
    const auto = await spawnHub(home, { env: { ...off, HUB_TOOL_NAMES: 'auto' } });
    const dotted = await spawnHub(home, { env: { ...off, HUB_TOOL_NAMES: 'dotted' } });
    try {
      const a = (await plain.client.listTools()).tools.map(t => t.name);
      const b = (await dotted.client.listTools()).tools.map(t => t.name);
      expect((await auto.client.listTools()).tools.map(t => t.name)).toEqual(a);
      expect(a).toContain('registry_search');
      expect(b).toContain('registry.search');
      expect(a.length).toBe(b.length);
      for (const name of a) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      for (const name of [...a, ...b]) expect(name).not.toContain('__');
      // The proxy reserves exactly hub's own names (both spellings), so no child can shadow one;
      // tools.search is listed only while some proxied tool is not (docs/exposure.md "Many servers, few tools").
      expect(new Set([...a, ...b, 'tools.search', 'tools_search'])).toEqual(HUB_TOOL_NAMES);
    } finally {
      await Promise.all([plain.close(), auto.close(), dotted.close()]);
    }
  });

  test('an unknown tool is a JSON-RPC error, and hub keeps answering', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      await expect(hub.call('no_such_tool')).rejects.toThrow(/Unknown tool/);
      expect((await hub.client.listTools()).tools).toBeInstanceOf(Array);
    } finally {
      await hub.close();
    }
  });

  test('exits promptly when stdin closes, with nothing but JSON-RPC on stdout', async () => {
    const home = await makeHubHome();
    const child = spawn(process.execPath, [SERVER_JS], {
      env: { ...process.env, HUB_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', chunk => (stdout += chunk));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await once(child.stdout, 'data');
    const started = Date.now();
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000);
    for (const line of stdout.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  test('exits on SIGTERM', async () => {
    const home = await makeHubHome();
    const child = spawn(process.execPath, [SERVER_JS], {
      env: { ...process.env, HUB_HOME: home },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await once(child.stdout, 'data'); // answered: its handlers are installed
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
