// `hub serve` as a person runs it (the built dist/server.js), and SDK clients over Streamable HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { SERVER_JS } from './hub.js';

export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly token: () => string;
  /** Everything printed so far. */
  readonly output: () => string;
  /** SIGINT (Ctrl-C), then its exit code. */
  stop(): Promise<number | null>;
}

/** `hub serve --port 0 [args]` on home; resolves once it printed its URL. Killed at test end. */
export async function startServe(home: string, ...args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [SERVER_JS, 'serve', '--port', '0', ...args], {
    env: { ...process.env, HUB_HOME: home, HUB_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /at (http:\/\/\S+\/mcp)/.exec(output)?.[1];
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 20);
    void exited.then(code => {
      clearInterval(timer);
      reject(new Error(`hub-mcp serve exited (${code}) before listening:\n${output}`));
    });
  });
  return {
    child,
    url,
    port: Number(new URL(url).port),
    token: () => readFileSync(join(home, 'http-token'), 'utf8').trim(),
    output: () => output,
    async stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

export interface HttpSession {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** An SDK Client over the SDK's StreamableHTTPClientTransport, with the bearer token. Closed at test end. */
export async function connectHttp(url: string, token: string, name = 'http-test'): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  onTestFinished(() => client.close().catch(() => undefined));
  return {
    client,
    transport,
    call: async (tool, args = {}) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
  };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One raw HTTP request (node:http, so Host and any header can be set as an attacker would). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string },
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
      },
      res => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', chunk => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
