// Published servers behave through hub as they do directly. Each package is installed from the
// npm registry by registry.install through the built hub; the same installed files are then run
// directly with the SDK client (as npx would) and the two are compared field by field: tools
// (names mapped, schemas, annotations, titles), instructions, errors and one call each.
// It needs the npm registry: runs with HUB_TEST_NPM=1 (helpers/npm-online.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { connectDirect, installedBin, type Direct, type LooseTool } from '../../helpers/direct.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { reapAll } from '../../helpers/processes.js';
import { NPM_ONLINE, npmSkipped } from '../../helpers/npm-online.js';

const NETWORK_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && /proxy|cert|_ca_|ca_bundle|cainfo|^npm_config_/i.test(entry[0]),
  ),
);

interface Case {
  name: string;
  package: string;
  args?: string[];
  env?: Record<string, string>;
  allowScripts?: string[];
  /** Only with HUB_NATIVE_TESTS=1: the native build compiles from source here (minutes on 2 cores). */
  native?: boolean;
  /** A call that succeeds the same way each time. */
  call: { tool: string; arguments: Record<string, unknown> };
  /** A call the server refuses (its error must come through as it is). */
  bad?: { tool: string; arguments: Record<string, unknown> };
  /** Schemas hub is allowed to mend (a missing "type": "object"), by tool. */
  mended?: boolean;
}

let scratch = '';
const cases = (): Case[] => [
  {
    name: 'everything',
    package: '@modelcontextprotocol/server-everything',
    call: { tool: 'echo', arguments: { message: 'parity' } },
    bad: { tool: 'echo', arguments: { message: 42 } },
  },
  {
    name: 'memory',
    package: '@modelcontextprotocol/server-memory',
    env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') },
    call: { tool: 'read_graph', arguments: {} },
    bad: { tool: 'create_entities', arguments: { entities: 'not a list' } },
  },
  {
    name: 'filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    args: [scratch],
    call: { tool: 'list_allowed_directories', arguments: {} },
    bad: { tool: 'read_text_file', arguments: { path: '/etc/passwd' } },
  },
  {
    name: 'thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    call: {
      tool: 'sequentialthinking',
      arguments: { thought: 'one', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
    },
  },
  {
    name: 'gitlab',
    package: '@modelcontextprotocol/server-gitlab',
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'not-a-token', GITLAB_API_URL: 'http://127.0.0.1:9/api/v4' },
    call: { tool: 'get_file_contents', arguments: { project_id: '1', file_path: 'README.md' } },
    mended: true,
  },
  {
    name: 'sqlite',
    package: 'mcp-server-sqlite-npx',
    args: [join(scratch, 'parity.sqlite')],
    allowScripts: ['sqlite3'],
    native: true,
    call: { tool: 'list_tables', arguments: {} },
  },
];

// What a result carries, without what differs run to run by nature (none of these servers
// put times or ids in these calls' results).
const shapeOf = (result: CallToolResult) => ({
  isError: result.isError ?? false,
  content: result.content,
  structuredContent: result.structuredContent,
});

describe.skipIf(!NPM_ONLINE)(`published servers through hub and directly${npmSkipped()}`, () => {
  let home = '';
  let hub: HubSession;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hub-parity-'));
    // One home for the whole suite (makeHubHome ties its cleanup to a single test).
    home = await mkdtemp(join(tmpdir(), 'hub-test-'));
    // Wait for each install here instead of letting a long one (a native build) go on in the background.
    await writeFile(join(home, 'config.json'), JSON.stringify({ install: { foregroundMs: 600_000 } }));
    // Every tool listed (HUB_EXPOSURE=all): this compares each server's list with a direct connection.
    hub = await spawnHub(home, { env: { ...NETWORK_ENV, HUB_TOOL_NAMES: 'underscore', HUB_EXPOSURE: 'all' } });
  }, 60_000);
  afterAll(async () => {
    await hub?.close();
    // The shared hub still writes under home (state/) until it is stopped.
    await stopSharedHubIn(home);
    await reapAll(home);
    await rm(home, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  });

  for (const entry of cases()) {
    test.skipIf(entry.native === true && process.env.HUB_NATIVE_TESTS !== '1')(
      `${entry.name}: tools, instructions, errors and a call match a direct connection`,
      { timeout: 900_000 },
      async () => {
        const item = cases().find(candidate => candidate.name === entry.name) as Case;
        const installed = (await hub.client.callTool(
          {
            name: 'registry_install',
            arguments: {
              package: item.package,
              name: item.name,
              ...(item.args && { args: item.args }),
              ...(item.env && { env: item.env }),
              ...(item.allowScripts !== undefined && { allowScripts: item.allowScripts }),
            },
          },
          undefined,
          { onprogress: () => undefined, timeout: 280_000, resetTimeoutOnProgress: true, maxTotalTimeout: 880_000 },
        )) as CallToolResult;
        expect(installed.isError, textOf(installed)).toBeFalsy();

        const direct: Direct = await connectDirect(installedBin(home, item.name, item.package), item.args, item.env);
        try {
          const directTools = await direct.listTools();
          const described = (await hub.call('registry_list', { server: item.name })).structuredContent as {
            tools: Array<{ tool: string; exposedName?: string }>;
            servers: Array<{ instructions?: string }>;
          };
          const exposed = new Map(described.tools.map(tool => [tool.tool, tool.exposedName ?? tool.tool]));
          const listed = new Map((await hub.client.listTools()).tools.map(tool => [tool.name, tool]));

          // Every tool the server offers is listed by hub, field by field as the server gave it.
          expect([...exposed.keys()].sort()).toEqual(directTools.map(tool => tool.name).sort());
          for (const tool of directTools) {
            const through = listed.get(exposed.get(tool.name) as string) as Tool;
            expect(through, `${tool.name} is listed by hub`).toBeDefined();
            // hub names the server in front of each description (documented); the rest is the server's.
            expect(through.description).toEqual(
              tool.description ? `[${item.name}] ${tool.description}` : `[${item.name}]`,
            );
            expect(through.title).toEqual((tool as LooseTool & { title?: string }).title);
            expect(through.annotations).toEqual((tool as LooseTool & { annotations?: unknown }).annotations);
            expect(through.outputSchema).toEqual((tool as LooseTool & { outputSchema?: unknown }).outputSchema);
            const schema = (tool as LooseTool & { inputSchema: Record<string, unknown> }).inputSchema;
            expect(through.inputSchema).toEqual(
              item.mended && schema.type === undefined ? { ...schema, type: 'object' } : schema,
            );
          }

          // Instructions: kept in the record, shown by registry.list.
          const instructions = direct.client.getInstructions();
          expect(described.servers[0]?.instructions).toEqual(instructions);

          const call = async (name: string, args: Record<string, unknown>) => {
            const viaHub = await hub.client.callTool({ name: exposed.get(name) as string, arguments: args }).then(
              result => ({ result: shapeOf(result as CallToolResult) }),
              (error: { code?: number; message: string; data?: unknown }) => ({
                error: { code: error.code, message: error.message, data: error.data },
              }),
            );
            const viaDirect = await direct.client.callTool({ name, arguments: args }).then(
              result => ({ result: shapeOf(result as CallToolResult) }),
              (error: { code?: number; message: string; data?: unknown }) => ({
                error: { code: error.code, message: error.message, data: error.data },
              }),
            );
            expect(viaHub).toEqual(viaDirect);
          };
          await call(item.call.tool, item.call.arguments);
          if (item.bad) await call(item.bad.tool, item.bad.arguments);
        } finally {
          await direct.close();
        }
      },
    );
  }
});
