#!/usr/bin/env node
// The floor of an SDK stdio server's cold start: the low-level Server, one tool, nothing else.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'minimal', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'ping', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'pong' }] }));
process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
