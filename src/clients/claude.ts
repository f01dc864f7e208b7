// Claude Code and Claude Desktop: where each keeps its MCP servers, and hub's entry there.
import { join } from 'node:path';
import type { ClientContext, ClientSpec, Launch, Scope } from './types.js';
import { appDataDir, shellQuote } from './os-paths.js';

// Claude Code (https://code.claude.com/docs/en/mcp, checked 2026-11): scope "project" is
// `.mcp.json` at the project root, scope "user" is `~/.claude.json`, both under key
// `mcpServers`; `claude mcp add --scope <s> <name> -- <command> [args...]` writes the same
// (it records `type: "stdio"`). The default "local" scope lives in ~/.claude.json under
// projects["<path>"].mcpServers: hub import reads it, hub config writes user or project.
export const claudeCode: ClientSpec = {
  id: 'claude-code',
  title: 'Claude Code',
  scopes: ['user', 'project'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'claude-code',
    scope,
    file: scope === 'project' ? join(context.cwd, '.mcp.json') : join(context.home, '.claude.json'),
    format: 'json',
    serversPath: ['mcpServers'],
  }),
  entry: launch => ({ type: 'stdio', command: launch.command, args: [...launch.args], env: {} }),
  // Remote servers: `type: "http"`, `url`, `headers` (same page; `claude mcp add --transport http --header`).
  urlEntry: (url, headers) => ({ type: 'http', url, headers: { ...headers } }),
  notes: (launch: Launch, scope: Scope) => [
    `Or let Claude Code write it: claude mcp add --scope ${scope} hub -- ${[launch.command, ...launch.args].map(shellQuote).join(' ')}`,
    'Check it inside Claude Code with /mcp.',
  ],
};

// Claude Desktop (modelcontextprotocol.io quickstart; playwright.dev/mcp/clients/claude-desktop):
// `claude_desktop_config.json`, key `mcpServers`, in ~/Library/Application Support/Claude
// (macOS) or %APPDATA%\Claude (Windows). There is no official Linux build; community builds
// read ~/.config/Claude, which is what hub uses on Linux.
function desktopDir(context: ClientContext): string {
  if (context.platform === 'darwin') return join(context.home, 'Library', 'Application Support', 'Claude');
  if (context.platform === 'win32') return join(appDataDir(context), 'Claude');
  return join(context.env.XDG_CONFIG_HOME ?? join(context.home, '.config'), 'Claude');
}

export const claudeDesktop: ClientSpec = {
  id: 'claude-desktop',
  title: 'Claude Desktop',
  scopes: ['user'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'claude-desktop',
    scope,
    file: join(desktopDir(context), 'claude_desktop_config.json'),
    format: 'json',
    serversPath: ['mcpServers'],
  }),
  entry: launch => ({ command: launch.command, args: [...launch.args] }),
  // Its config file takes stdio servers only; remote servers are Connectors added in its
  // settings (support.claude.com "custom connectors"), reached from Anthropic's side, not localhost.
  noUrl:
    'Claude Desktop starts only stdio servers from claude_desktop_config.json (remote servers are Connectors in its settings, which cannot reach 127.0.0.1). Use hub-mcp config claude-desktop without --http: the stdio entry works there.',
  notes: () => [
    'Quit and reopen Claude Desktop to load it. Claude Desktop rejects dotted tool names, so hub lists its tools with underscores there (registry_search).',
  ],
};
