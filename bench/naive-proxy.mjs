#!/usr/bin/env node
// The reference proxy: what anyone would write in ~60 lines with the SDK's low-level Server and
// Client. It spawns one child (argv: command path and args, run with node), lists its tools as
// everything.<tool>, and forwards each call with both SDK layers validating every message.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const PREFIX = 'everything.';
const [childScript, ...childArgs] = process.argv.slice(2);

const child = new Client({ name: 'naive-proxy', version: '1.0.0' }, { capabilities: {} });
await child.connect(
  new StdioClientTransport({ command: process.execPath, args: [childScript, ...childArgs], stderr: 'ignore' }),
);
const { tools } = await child.listTools();

const server = new Server({ name: 'naive-proxy', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: tools.map(tool => ({ ...tool, name: PREFIX + tool.name })),
}));

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args } = request.params;
  if (!name.startsWith(PREFIX)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  return child.callTool({ name: name.slice(PREFIX.length), arguments: args }, CallToolResultSchema, {
    signal: extra.signal,
  });
});

const shutdown = async () => {
  await child.close().catch(() => undefined);
  process.exit(0);
};
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.on('SIGTERM', shutdown);

await server.connect(new StdioServerTransport());
