// Issue 27 item 9, through the built server (dist/server.js) as a real client sees it: the same
// words take the same shapes. wait_for is one object in start_process and send_input, and a
// pattern given alone as a string is taken by both (and send_input waits for a port as
// start_process does); get_process_screen leaves out the blank rows under the text; registry_call
// returns the child's result as the child shaped it.
import { fileURLToPath } from 'node:url';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

const waitForOf = (tools: Tool[], name: string) =>
  (tools.find(tool => tool.name === name)?.inputSchema.properties as Record<string, Record<string, unknown>>).wait_for;

describe('same words, same shapes', () => {
  test('wait_for: one object listed in both tools; the object form and a bare pattern taken by both', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { clientName: 'gemini-cli-mcp-client' });
    try {
      // Listed as one plain object shape in both (no anyOf: some clients drop unions).
      const tools = (await hub.client.listTools()).tools;
      for (const name of ['start_process', 'send_input']) {
        const listed = waitForOf(tools, name);
        expect(listed, name).toMatchObject({ type: 'object' });
        expect(Object.keys(listed?.properties as object).sort(), name).toEqual(['pattern', 'port', 'timeout_ms']);
        expect(JSON.stringify(listed)).not.toContain('anyOf');
      }

      // start_process with send_input's form: the pattern as a string.
      const started = ok(
        await hub.call('start_process', {
          command: process.execPath,
          args: ['-i'],
          name: 'repl',
          tty: true,
          wait_for: '^> ',
        }),
      );
      expect(started).toMatchObject({ ready: true, reason: 'pattern' });
      // send_input with start_process's form: { pattern, timeout_ms }.
      const answer = ok(
        await hub.call('send_input', {
          id: 'repl',
          text: '6*7',
          keys: ['Enter'],
          wait_for: { pattern: '^42$', timeout_ms: 20_000 },
        }),
      );
      expect(answer).toMatchObject({ reason: 'pattern' });
      expect(answer.output).toContain('42');
      // And a port, as start_process waits for one: a server the input starts.
      const port = ok(await hub.call('get_free_port', {})).port as number;
      const serving = ok(
        await hub.call('send_input', {
          id: 'repl',
          text: `void require('http').createServer((q, r) => r.end('hi')).listen(${port}, '127.0.0.1')`,
          keys: ['Enter'],
          wait_for: { port, timeout_ms: 20_000 },
        }),
      );
      expect(serving).toMatchObject({ reason: 'port' });
      // A bad pattern names its field in either form.
      const bad = await hub.call('send_input', { id: 'repl', text: '1', wait_for: '(' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/wait_for\.pattern/);

      ok(await hub.call('kill_process', { id: 'repl', grace_ms: 2_000 }));
    } finally {
      await hub.close();
    }
  }, 60_000);

  test('get_process_screen returns the rows down to the last written, not the blank ones under it', async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { clientName: 'cursor' });
    try {
      ok(
        await hub.call('start_process', {
          command: process.execPath,
          args: ['-i'],
          name: 'repl',
          tty: true,
          wait_for: { pattern: '^> ' },
        }),
      );
      ok(await hub.call('send_input', { id: 'repl', text: '6*7', keys: ['Enter'], wait_for: '^42$' }));
      // 30 rows, three of them written (prompt and input, answer, prompt).
      const screen = ok(await hub.call('get_process_screen', { id: 'repl' }));
      expect(screen).toMatchObject({ rows: 30, cols: 120 });
      const lines = screen.lines as string[];
      expect(lines.length).toBeLessThan(10);
      expect(lines.at(-1)).not.toBe('');
      expect(lines).toContain('42');
      const cursor = screen.cursor as { row: number };
      expect(cursor.row).toBe(lines.length - 1);
      ok(await hub.call('kill_process', { id: 'repl', grace_ms: 2_000 }));
    } finally {
      await hub.close();
    }
  }, 60_000);

  test("registry_call returns the child's result as the child shaped it: the same as a direct call", async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home, { clientName: 'claude-code' });
    try {
      ok(await hub.call('registry_install', { command: process.execPath, args: [EVERYTHING], name: 'everything' }));
      const tools = (await hub.client.listTools()).tools;
      // No output schema: a client then requires no structuredContent of a child that gives none.
      expect(tools.find(tool => tool.name === 'registry_call')?.outputSchema).toBeUndefined();
      const shape = (result: CallToolResult) => ({
        content: result.content,
        structuredContent: result.structuredContent,
        isError: result.isError ?? false,
      });
      for (const [tool, args] of [
        ['echo', { message: 'as is' }],
        ['get-structured-content', { location: 'Chicago' }],
        ['echo', {}],
      ] as const) {
        const direct = (await hub.call(`everything_${tool}`, args)) as CallToolResult;
        const via = await hub.call('registry_call', { server: 'everything', tool, arguments: args });
        expect(shape(via), tool).toEqual(shape(direct));
      }
      const echoed = await hub.call('registry_call', {
        server: 'everything',
        tool: 'echo',
        arguments: { message: 'x' },
      });
      expect(echoed.structuredContent).toBeUndefined();
      expect(textOf(echoed)).toBe('Echo: x');
    } finally {
      await hub.close();
    }
  }, 60_000);
});
