// Hub's own MCP surface as a real SDK Client sees it: names in one spelling everywhere (listing,
// instructions, results, errors), human titles, guidance in structuredContent, and input schemas
// of plain types that every client's schema converter handles.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { startHubInProcess, textOf, type HubSession } from '../helpers/hub.js';

const HUB_TOOLS = [
  'registry.search',
  'registry.install',
  'registry.list',
  'registry.uninstall',
  'registry.call',
  'registry.configure',
  'start_process',
  'list_processes',
  'get_process_logs',
  'kill_process',
  'get_free_port',
  'send_input',
  'get_process_screen',
  'restart_process',
];
const underscore = (name: string) => name.replaceAll('.', '_');

async function withHub(fn: (hub: HubSession) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const home = await makeHubHome();
  const hub = await startHubInProcess(home, { env, clientName: 'some-framework' });
  try {
    await fn(hub);
  } finally {
    await hub.close();
  }
}

const hubTools = async (hub: HubSession): Promise<Tool[]> =>
  (await hub.client.listTools()).tools.filter(tool =>
    HUB_TOOLS.some(name => tool.name === name || tool.name === underscore(name)),
  );

// Every place in a JSON Schema where a composition keyword or a type-less property would be.
function compositions(schema: unknown, path = '$'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => compositions(item, `${path}[${index}]`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found = ['anyOf', 'oneOf', 'allOf', 'not'].filter(key => key in node).map(key => `${path}.${key}`);
  const properties = (node.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, property] of Object.entries(properties))
    if (typeof property.type !== 'string') found.push(`${path}.properties.${key} has no single type`);
  return [...found, ...Object.entries(node).flatMap(([key, value]) => compositions(value, `${path}.${key}`))];
}

describe("hub's own tools", () => {
  test('are listed with underscore names, human titles and descriptions in the same spelling', async () => {
    await withHub(async hub => {
      const tools = await hubTools(hub);
      expect(tools.map(tool => tool.name)).toEqual(HUB_TOOLS.map(underscore));
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]+ [a-zA-Z ]+$/);
        expect(tool.annotations?.title ?? tool.title).toBe(tool.title);
        // No dotted name anywhere the model reads: descriptions, schema descriptions.
        expect(JSON.stringify(tool), tool.name).not.toMatch(
          /registry\.(search|install|list|uninstall|call|configure)|<(server|name)>\.<tool>/,
        );
      }
      expect(tools.find(tool => tool.name === 'start_process')?.title).toBe('Start a process');
      expect(tools.find(tool => tool.name === 'registry_search')?.title).toBe('Search the MCP registry');
      const instructions = hub.client.getInstructions() ?? '';
      expect(instructions).toContain('registry_search → registry_install');
      expect(instructions).not.toMatch(/registry\./);
    });
  });

  test('HUB_TOOL_NAMES=dotted lists dots and writes them in texts; both spellings are called in every mode', async () => {
    await withHub(
      async hub => {
        const tools = await hubTools(hub);
        expect(tools.map(tool => tool.name)).toEqual(HUB_TOOLS);
        expect(hub.client.getInstructions()).toContain('registry.search → registry.install');
        const listed = await hub.call('registry_list');
        expect((listed.structuredContent as { next: string }).next).toContain('registry.search');
        expect((await hub.call('list_processes')).isError).toBeFalsy();
      },
      { HUB_TOOL_NAMES: 'dotted' },
    );
    await withHub(async hub => {
      for (const name of ['registry.list', 'registry_list']) {
        const listed = await hub.call(name);
        expect(listed.isError, textOf(listed)).toBeFalsy();
        expect((listed.structuredContent as { next: string }).next).toBe(
          'Nothing installed yet: find a server with registry_search, then registry_install.',
        );
      }
    });
  });

  test('an unknown tool is one plain JSON-RPC error naming tools in the listed spelling', async () => {
    await withHub(async hub => {
      const error = await hub.call('nope.tool').then(
        () => undefined,
        (thrown: unknown) => thrown as Error & { code: number },
      );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toBe(
        'MCP error -32602: Unknown tool: nope.tool. Call tools/list (or registry_list) to see the available tools.',
      );
    });
  });

  test('bad input and tool errors name tools as listed', async () => {
    await withHub(async hub => {
      const missing = await hub.call('registry_list', { server: 'nope' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain(
        'call registry_list to see the installed servers, or registry_search and registry_install',
      );
      const invalid = await hub.call('registry.search', { query: '' });
      expect(textOf(invalid)).toMatch(/^INVALID_INPUT: Invalid arguments for registry_search: field "query"/);
    });
  });
});

describe('guidance in structuredContent (clients that show the model only that)', () => {
  test('start_process, get_process_logs, list_processes and get_free_port give next with ids filled in', async () => {
    await withHub(async hub => {
      const structured = async (name: string, args: Record<string, unknown> = {}) => {
        const result: CallToolResult = await hub.call(name, args);
        expect(result.isError, textOf(result)).toBeFalsy();
        return result.structuredContent as { next: string } & Record<string, unknown>;
      };
      await hub.client.listTools(); // the client now checks every structuredContent against the outputSchema
      expect((await structured('list_processes')).next).toBe('No processes. Start one with start_process.');
      const port = await structured('get_free_port');
      expect(port.next).toContain(`ports [${String(port.port)}]`);
      const started = await structured('start_process', {
        command: 'echo hello; sleep 30',
        wait_for: { pattern: 'hello' },
      });
      const id = (started.process as { id: string }).id;
      expect(started.next).toContain(`get_process_logs {"id":"${id}"}`);
      expect(started.next).toContain(`kill_process {"id":"${id}"}`);
      const logs = await structured('get_process_logs', { id });
      expect(logs.next).toBe(
        `For newer output only: get_process_logs {"id":"${id}","cursor":${String(logs.next_cursor)}}.`,
      );
      expect((await structured('list_processes')).next).toContain('get_process_logs');
      expect((await structured('kill_process', { id, grace_ms: 2_000 })).already_ended).toBe(false);
    });
  });
});

describe('guidance in structuredContent for the registry tools', () => {
  test('registry_search (offline catalog) says how to install a result, in the listed spelling', async () => {
    await withHub(async hub => {
      await hub.client.listTools();
      const found = await hub.call('registry_search', { query: 'memory', sources: ['catalog'] });
      expect(found.isError, textOf(found)).toBeFalsy();
      const { next } = found.structuredContent as { next: string };
      expect(next).toContain('registry_install {"package":"@modelcontextprotocol/server-memory","name":"memory"}');
      expect(textOf(found)).toContain('install: registry_install {');
      const none = await hub.call('registry_search', { query: 'zzzzqqqq-nothing', sources: ['catalog'] });
      expect((none.structuredContent as { next: string }).next).toMatch(
        /^No MCP servers found; try another word or registry_search/,
      );
    });
  });
});

describe('input schemas every client can convert', () => {
  test('no anyOf/oneOf/allOf/not at any level, and every property has one type', async () => {
    await withHub(async hub => {
      for (const tool of await hubTools(hub)) expect(compositions(tool.inputSchema), tool.name).toEqual([]);
    });
  });

  test('get_free_port takes preferred as a number, a string of digits (Inspector CLI) or a list', async () => {
    await withHub(async hub => {
      const free = (await hub.call('get_free_port')).structuredContent as { port: number };
      for (const preferred of [free.port, String(free.port), [free.port], [String(free.port), 1]]) {
        const result = await hub.call('get_free_port', { preferred, host: '127.0.0.1' });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ port: expect.any(Number) as number });
      }
      const bad = await hub.call('get_free_port', { host: 'localhost' });
      expect(textOf(bad)).toMatch(/^INVALID_INPUT: .*field "host": must be an IP address/);
      const badPort = await hub.call('get_free_port', { preferred: 'abc' });
      expect(badPort.isError).toBe(true);
    });
  });
});
