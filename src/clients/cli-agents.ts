// Codex and Gemini CLI: where each keeps its MCP servers, and hub's entry there.
import { join } from 'node:path';
import type { ClientContext, ClientSpec, Launch, Scope } from './types.js';
import { shellQuote } from './os-paths.js';

// Codex (https://developers.openai.com/codex/mcp and openai/codex docs/config.md): TOML,
// `$CODEX_HOME/config.toml` (default ~/.codex) with one `[mcp_servers.<name>]` table of
// command/args/env; a trusted project may also have `.codex/config.toml`.
export const codex: ClientSpec = {
  id: 'codex',
  title: 'Codex',
  scopes: ['user', 'project'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'codex',
    scope,
    file:
      scope === 'project'
        ? join(context.cwd, '.codex', 'config.toml')
        : join(context.env.CODEX_HOME ?? join(context.home, '.codex'), 'config.toml'),
    format: 'toml',
    serversPath: ['mcp_servers'],
  }),
  entry: launch => ({ command: launch.command, args: [...launch.args] }),
  // Streamable HTTP servers: `url` with literal headers in `http_headers` (an inline
  // `bearer_token` is rejected; `bearer_token_env_var` names a variable instead): same pages,
  // and codex-rs config mcp_types.rs. `headers` would be silently ignored.
  urlEntry: (url, headers) => ({ url, http_headers: { ...headers } }),
  notes: (launch: Launch) => [
    `Or let Codex write it: codex mcp add hub -- ${[launch.command, ...launch.args].map(shellQuote).join(' ')}`,
    'Check it inside Codex with /mcp.',
  ],
};

// Gemini CLI (https://geminicli.com/docs/cli/configuration, docs/tools/mcp-server.md):
// `~/.gemini/settings.json` (user) and `.gemini/settings.json` (project), key `mcpServers`.
export const gemini: ClientSpec = {
  id: 'gemini',
  title: 'Gemini CLI',
  scopes: ['user', 'project'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'gemini',
    scope,
    file: join(scope === 'project' ? context.cwd : context.home, '.gemini', 'settings.json'),
    format: 'json',
    serversPath: ['mcpServers'],
  }),
  entry: (launch, env) => ({ command: launch.command, args: [...launch.args], ...geminiEnv(env) }),
  // Streamable HTTP is `httpUrl` (+ `headers`); `url` would mean the old SSE transport (same page).
  urlEntry: (url, headers) => ({ httpUrl: url, headers: { ...headers } }),
  notes: (launch: Launch, scope: Scope) => [
    `Or let Gemini CLI write it: gemini mcp add --scope ${scope} hub ${[launch.command, ...launch.args].map(shellQuote).join(' ')}`,
    'Check it inside Gemini CLI with /mcp.',
  ],
};

// Gemini CLI drops variables whose names match CERT, KEY, TOKEN (and more) from the environment
// of the servers it starts, so NODE_EXTRA_CA_CERTS (a corporate CA) never reaches hub. npm reads
// `npm_config_cafile` as its cafile setting, and hub takes its registry CA from npm's settings:
// the same file under a name Gemini keeps reaches both hub's own requests and the npm installs.
export function geminiEnv(env: ClientContext['env'] | undefined): { env?: Record<string, string> } {
  const caFile = env?.NODE_EXTRA_CA_CERTS?.trim();
  return caFile ? { env: { npm_config_cafile: caFile } } : {};
}
