// Remote MCP servers through the built hub: registry.install { url } over Streamable HTTP and
// the HTTP+SSE fallback, header secrets, list_changed, a server that forgets its session, and a
// server that goes away. Real SDK servers on 127.0.0.1 (test/fixtures/remote-server.mjs).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { allLogs, startRemoteFixture } from '../../helpers/remote-fixture.js';

const SECRET = 'sekret-4f1c9a77';
const shown = (result: CallToolResult) => JSON.stringify(result);

describe('registry.install { url }', () => {
  test('a Streamable HTTP server: tools proxied, header secrets never shown, list_changed, a new session after a restart', async () => {
    const home = await makeHubHome();
    let server = await startRemoteFixture('remote-server.mjs', ['--require-header', `X-Api-Key=${SECRET}`]);
    // The server adds a tool while it runs: listed with a warning rather than withheld for a
    // person's approval (docs/security.md "Tool integrity"; withholding is tested in integrity.test.ts).
    await writeFile(join(home, 'config.json'), JSON.stringify({ integrity: 'flag' }));
    const hub = await spawnHub(home);
    const outputs: string[] = [];
    try {
      const installed = await hub.call('registry.install', {
        url: server.url,
        name: 'docs',
        headers: { 'X-Api-Key': '${DOCS_KEY}' },
        env: { DOCS_KEY: SECRET },
      });
      outputs.push(shown(installed));
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(installed.structuredContent).toMatchObject({ name: 'docs', state: 'ready', command: server.url });
      expect((installed.structuredContent as { tools: string[] }).tools).toEqual(
        expect.arrayContaining(['docs_echo', 'docs_add_tool', 'docs_header_ok']),
      );
      const listed = await hub.call('registry_list', {});
      expect((listed.structuredContent as { servers: unknown[] }).servers).toEqual([
        expect.objectContaining({ name: 'docs', kind: 'remote', state: 'ready' }),
      ]);
      expect(textOf(listed)).toMatch(/^docs {2}remote {2}ready/);
      const echo = await hub.call('docs_echo', { text: 'hi' });
      expect(textOf(echo)).toBe('echo: hi');
      expect(textOf(await hub.call('docs_header_ok'))).toBe('true');

      // The server adds a tool and says so: hub lists it and tells its client.
      const changed = vi.fn();
      hub.client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
      outputs.push(shown(await hub.call('docs_add_tool', { name: 'extra' })));
      await vi.waitFor(
        async () => {
          const { tools } = await hub.client.listTools();
          expect(tools.map(tool => tool.name)).toContain('docs_extra');
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(changed).toHaveBeenCalled();

      // The server restarts on the same port and forgets every session: the next call starts a new one.
      await server.stop();
      server = await startRemoteFixture('remote-server.mjs', [
        '--port',
        String(server.port),
        '--require-header',
        `X-Api-Key=${SECRET}`,
      ]);
      expect(textOf(await hub.call('docs_echo', { text: 'again' }))).toBe('echo: again');
      // The new session's lists are read again: the restarted server has no "extra" tool.
      await vi.waitFor(
        async () => {
          const { tools } = await hub.client.listTools();
          expect(tools.map(tool => tool.name)).not.toContain('docs_extra');
        },
        { timeout: 10_000, interval: 50 },
      );
      const log = await readFile(join(home, 'logs', 'servers', 'docs.log'), 'utf8');
      expect(log).toContain('forgot the session');

      const list = await hub.call('registry.list', { server: 'docs' });
      outputs.push(shown(list));
      const summary = (list.structuredContent as { servers: { calls: number; state: string }[] }).servers[0];
      expect(summary?.state).toBe('ready');
      expect(summary?.calls).toBeGreaterThanOrEqual(4);
      outputs.push(shown(await hub.call('registry.list')));
    } finally {
      await hub.close();
    }
    // Listing needs no connection: a new hub lists the cached tools with the server gone.
    await server.stop();
    const again = await spawnHub(home);
    try {
      const { tools } = await again.client.listTools();
      expect(tools.map(tool => tool.name)).toEqual(expect.arrayContaining(['docs_echo', 'docs_add_tool']));
      const down = await again.call('docs_echo', { text: 'x' });
      outputs.push(shown(down));
      expect(down.isError).toBe(true);
      expect(textOf(down)).toMatch(/ECONNREFUSED|fetch failed/);
      const list = await again.call('registry.list', { server: 'docs' });
      outputs.push(shown(list));
      expect((list.structuredContent as { servers: { lastError?: string }[] }).servers[0]?.lastError).toMatch(
        /ECONNREFUSED|fetch failed/,
      );
    } finally {
      await again.close();
    }
    for (const output of outputs) expect(output).not.toContain(SECRET);
    expect(await allLogs(home)).not.toContain(SECRET);
  });

  test('an HTTP+SSE-only server: hub falls back to the legacy transport', async () => {
    const home = await makeHubHome();
    const server = await startRemoteFixture('remote-server.mjs', ['--mode', 'sse']);
    const hub = await spawnHub(home);
    try {
      const installed = await hub.call('registry.install', { url: server.url, name: 'legacy' });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(installed.structuredContent).toMatchObject({ state: 'ready' });
      expect(textOf(await hub.call('legacy_echo', { text: 'old' }))).toBe('echo: old');
      const log = await readFile(join(home, 'logs', 'servers', 'legacy.log'), 'utf8');
      expect(log).toMatch(/Streamable HTTP was refused \(.*405/);
      expect(log).toContain('connected over sse');
    } finally {
      await hub.close();
    }
  });

  test('refusals name the field; an unset header variable keeps the server stopped', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      const both = await hub.call('registry.install', { url: 'http://127.0.0.1:9/mcp', package: 'x', name: 'x' });
      expect(textOf(both)).toMatch(/^INVALID_INPUT: Give exactly one of "package".*"url"/);
      const bad = await hub.call('registry.install', { url: 'ftp://example.com/x', name: 'x' });
      expect(textOf(bad)).toMatch(/^INVALID_INPUT: Field "url" must be an http or https URL/);
      const creds = await hub.call('registry.install', { url: 'https://user:pw@example.com/mcp' });
      expect(textOf(creds)).toMatch(/^INVALID_INPUT: Field "url" must not hold a user name or password/);
      const ip = await hub.call('registry.install', { url: 'http://127.0.0.1:9/mcp' });
      expect(textOf(ip)).toMatch(/^INVALID_INPUT: Field "name" is required for 127\.0\.0\.1:9/);
      const stray = await hub.call('registry.install', { command: 'node', name: 'x', headers: { A: 'b' } });
      expect(textOf(stray)).toMatch(/^INVALID_INPUT: Fields "headers" and "transport" are for remote servers/);
      const header = await hub.call('registry.install', {
        url: 'http://127.0.0.1:9/mcp',
        name: 'x',
        headers: { 'Bad Header': 'v' },
      });
      expect(textOf(header)).toMatch(/^INVALID_INPUT: Field "headers" has an invalid header name "Bad Header"/);
      const unset = await hub.call('registry.install', {
        url: 'http://127.0.0.1:9/mcp',
        name: 'later',
        headers: { Authorization: 'Bearer ${HUB_TEST_UNSET_TOKEN}' },
      });
      expect(unset.structuredContent).toMatchObject({ state: 'stopped', missingEnv: ['HUB_TEST_UNSET_TOKEN'] });
    } finally {
      await hub.close();
    }
  });
});
