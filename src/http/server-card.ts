// The Server Card (SEP-2127) of hub serve: what hub is and how to sign in, answered without the token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from '../core/http-endpoint.js';
import { HUB_VERSION } from '../core/version.js';
import { SURFACE_CAPABILITIES } from '../proxy/surface/handlers.js';
import { checkHost } from './guard.js';

// The MCP Server Card (SEP-2127) of `hub serve`, at the well-known path, answered without the
// token: a client or a registry learns what hub is, where it speaks MCP and that it wants a
// bearer token before it has one. It says nothing a token would guard: no installed server, no
// tool (they are the person's), no path under HUB_HOME, no token. Host is still checked (DNS
// rebinding); Origin is not: the card is public, and a browser may read it from any page.

export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The card for a client that reached hub at `hostname` (from the checked Host header) on `port`. */
export function serverCard(hostname: string, port: number): Record<string, unknown> {
  return {
    $schema: SCHEMA,
    name: 'io.github.hub-mcp/hub-mcp',
    title: 'hub',
    version: HUB_VERSION,
    description:
      'One MCP server for every client: find, install and proxy other MCP servers, and run detached dev processes.',
    websiteUrl: 'https://github.com/hub-mcp/hub-mcp',
    remotes: [
      {
        type: 'streamable-http',
        url: `http://${hostname}:${port}${MCP_PATH}`,
        supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        headers: [
          {
            name: 'Authorization',
            description:
              'Bearer <token>: the token is in the file `hub-mcp serve` names when it starts (HUB_HOME/http-token), on the machine that runs it.',
            isRequired: true,
            isSecret: true,
          },
        ],
        authentication: { required: true, schemes: ['bearer'] },
      },
    ],
    capabilities: { tools: { listChanged: true }, ...SURFACE_CAPABILITIES },
  };
}

/** Answers GET/HEAD of the card's path (true), or leaves the request to the /mcp endpoint (false). */
export function servedCard(
  req: IncomingMessage,
  res: ServerResponse,
  allowed: ReadonlySet<string>,
  port: number,
): boolean {
  if ((req.url ?? '').split('?')[0] !== SERVER_CARD_PATH) return false;
  const refusal = checkHost(req.headers.host, allowed);
  const method = req.method ?? '';
  const [status, body, headers] = refusal
    ? [refusal.status, { error: refusal.message }, {}]
    : method !== 'GET' && method !== 'HEAD'
      ? [405, { error: `Method not allowed: ${SERVER_CARD_PATH} takes GET.` }, { Allow: 'GET, HEAD' }]
      : [
          200,
          serverCard(new URL(`http://${req.headers.host ?? ''}`).hostname, port),
          { 'Cache-Control': 'max-age=300' },
        ];
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Access-Control-Allow-Origin': '*',
    ...headers,
  });
  res.end(method === 'HEAD' ? undefined : text);
  return true;
}
