#!/usr/bin/env node
// hub as the client of a remote MCP server, for the official conformance suite's client
// scenarios: `conformance client --command "node scripts/conformance/hub-client.mjs"` appends the
// scenario's server URL. This starts the built hub (dist/server.js) in a temporary HUB_HOME,
// installs the URL with registry_install, completes any sign-in headlessly (the scenarios'
// authorization servers approve at once: follow the redirect to hub's loopback callback), then
// lists and calls the server's tools, following a step-up sign-in a call asks for. The scenario's
// context (MCP_CONFORMANCE_CONTEXT: a pre-registered client, a private key, an IdP's ID token) is
// passed as the per-server env hub reads it from (docs/servers.md "Remote servers").
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const SERVER_JS = fileURLToPath(new URL('../../dist/server.js', import.meta.url));
const NAME = 'conf';
// Sign-ins this client follows in one run: the first, and step-ups. More means hub keeps asking.
const MAX_SIGN_INS = 3;
const WAIT_MS = 20_000;

// The suite's authorization server for auth/basic-cimd expects this client id (it fetches nothing).
const SUITE_CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** The per-server env hub reads OAuth settings from, for the scenario and its context. */
export function envForContext(scenario, context) {
  const env = {};
  const put = (key, value) => typeof value === 'string' && (env[key] = value);
  put('OAUTH_CLIENT_ID', context.client_id);
  put('OAUTH_CLIENT_SECRET', context.client_secret);
  put('OAUTH_PRIVATE_KEY', context.private_key_pem);
  put('OAUTH_SIGNING_ALGORITHM', context.signing_algorithm);
  put('OAUTH_IDP_TOKEN_ENDPOINT', context.idp_token_endpoint);
  put('OAUTH_IDP_CLIENT_ID', context.idp_client_id);
  put('OAUTH_IDP_ID_TOKEN', context.idp_id_token);
  if (scenario === 'auth/basic-cimd') env.OAUTH_CLIENT_METADATA_URL = SUITE_CIMD_URL;
  if (scenario.startsWith('auth/client-credentials')) env.OAUTH_GRANT = 'client_credentials';
  if (scenario.startsWith('auth/cross-app-access')) env.OAUTH_GRANT = 'jwt_bearer';
  return env;
}

const textOf = result => (result.content ?? []).map(part => part.text ?? '').join('\n');
const signInUrlOf = text => /open (\S+) in a browser/.exec(text)?.[1];

// The person's browser: the authorization server redirects at once to hub's loopback callback.
async function signInAsBrowser(url) {
  const approve = await fetch(url, { redirect: 'manual' });
  const location = approve.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${approve.status} without a redirect`);
  const landing = await fetch(new URL(location, url));
  const page = await landing.text();
  if (!landing.ok) throw new Error(`hub's callback answered ${landing.status}: ${page}`);
}

// Arguments a conformance tool accepts: numbers and strings filled from its input schema.
function argumentsFor(tool) {
  const args = {};
  for (const [key, schema] of Object.entries(tool.inputSchema?.properties ?? {}))
    args[key] = schema.type === 'number' || schema.type === 'integer' ? 1 : schema.type === 'boolean' ? true : 'x';
  return args;
}

async function main(url) {
  const home = await mkdtemp(join(tmpdir(), 'hub-conformance-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, HUB_HOME: home, HUB_SHARED: 'off' },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'hub-conformance', version: '1.0.0' }, { capabilities: {} });
  let changed = () => undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  await client.connect(transport);
  let signIns = 0;
  const followed = new Set();
  const follow = async url => {
    followed.add(url);
    signIns += 1;
    if (signIns > MAX_SIGN_INS) throw new Error(`hub asked for a sign-in more than ${MAX_SIGN_INS} times`);
    console.error(`signing in: ${url}`);
    await signInAsBrowser(url);
  };
  const ownTools = async () => (await client.listTools()).tools.filter(tool => tool.name.startsWith(`${NAME}_`));
  const toolsAppear = async () => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const tools = await ownTools();
      if (tools.length > 0) return tools;
      // A step-up asked for at start (after a sign-in): the server's status carries the new link.
      const status = textOf(await client.callTool({ name: 'registry_list', arguments: { server: NAME } }));
      const next = signInUrlOf(status);
      if (next && !followed.has(next)) {
        await follow(next);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`no tools of ${NAME} appeared within ${WAIT_MS} ms`);
      await new Promise(resolve => {
        changed = resolve;
        setTimeout(resolve, 500);
      });
    }
  };
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
    const env = envForContext(process.env.MCP_CONFORMANCE_SCENARIO ?? '', context);
    const installed = await client.callTool({
      name: 'registry_install',
      arguments: { url, name: NAME, ...(Object.keys(env).length > 0 && { env }) },
    });
    console.error(`registry_install: ${textOf(installed).slice(0, 600)}`);
    const first = installed.structuredContent?.authorizationUrl ?? signInUrlOf(textOf(installed));
    if (installed.isError && !first) throw new Error('registry_install failed');
    if (first) await follow(first);
    // Started at install (a server may have no tools), or once the sign-in is done.
    const tools = first ? await toolsAppear() : await ownTools();
    for (const tool of tools) {
      for (;;) {
        const result = await client.callTool({ name: tool.name, arguments: argumentsFor(tool) });
        const text = textOf(result);
        console.error(`${tool.name}: ${text.slice(0, 300)}`);
        const again = result.isError ? signInUrlOf(text) : undefined;
        if (!again) break;
        await follow(again);
        await toolsAppear();
      }
    }
  } finally {
    await client.close();
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: hub-client.mjs <server-url>');
    process.exit(2);
  }
  main(url).then(
    () => process.exit(0),
    error => {
      console.error(`hub conformance client: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
