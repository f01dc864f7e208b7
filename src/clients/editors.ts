// Cursor, VS Code and Windsurf: where each keeps its MCP servers, and hub's entry there.
import { join } from 'node:path';
import type { ClientSpec } from './types.js';
import { userConfigDir } from './os-paths.js';

// Cursor (https://cursor.com/docs/mcp): `~/.cursor/mcp.json` for every project and
// `.cursor/mcp.json` in a project, key `mcpServers`, stdio entries are { command, args, env }.
export const cursor: ClientSpec = {
  id: 'cursor',
  title: 'Cursor',
  scopes: ['user', 'project'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'cursor',
    scope,
    file: join(scope === 'project' ? context.cwd : context.home, '.cursor', 'mcp.json'),
    format: 'json',
    serversPath: ['mcpServers'],
  }),
  entry: launch => ({ command: launch.command, args: [...launch.args] }),
  // An entry with `url` (and optional `headers`) instead of `command` is a remote server (same page).
  urlEntry: (url, headers) => ({ url, headers: { ...headers } }),
  notes: () => ['Cursor picks the file up on save; check Settings → MCP (or restart Cursor).'],
};

// VS Code (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration): workspace
// `.vscode/mcp.json`, key `servers`, and a stdio entry needs `type: "stdio"`. The user-profile
// mcp.json (MCP: Open User Configuration) sits in the Code/User settings folder of the default
// profile: ~/.config/Code/User, ~/Library/Application Support/Code/User, %APPDATA%\Code\User.
export const vscode: ClientSpec = {
  id: 'vscode',
  title: 'VS Code',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  locate: (scope, context) => ({
    client: 'vscode',
    scope,
    file:
      scope === 'project'
        ? join(context.cwd, '.vscode', 'mcp.json')
        : join(userConfigDir(context), 'Code', 'User', 'mcp.json'),
    format: 'json',
    serversPath: ['servers'],
  }),
  entry: launch => ({ type: 'stdio', command: launch.command, args: [...launch.args] }),
  // Remote servers: `type: "http"`, `url`, `headers` (same page, "HTTP and SSE servers").
  urlEntry: (url, headers) => ({ type: 'http', url, headers: { ...headers } }),
  notes: () => ['VS Code shows a Start button above the entry in mcp.json; hub tools appear in Copilot agent mode.'],
};

// Windsurf (https://docs.windsurf.com/windsurf/cascade/mcp): one user file,
// `~/.codeium/windsurf/mcp_config.json` (Windows: %USERPROFILE%\.codeium\...), key `mcpServers`.
// Remote entries there use `serverUrl` rather than `url`.
export const windsurf: ClientSpec = {
  id: 'windsurf',
  title: 'Windsurf',
  scopes: ['user'],
  defaultScope: 'user',
  locate: (scope, context) => ({
    client: 'windsurf',
    scope,
    file: join(context.home, '.codeium', 'windsurf', 'mcp_config.json'),
    format: 'json',
    serversPath: ['mcpServers'],
  }),
  entry: launch => ({ command: launch.command, args: [...launch.args] }),
  // Streamable HTTP is supported (same page: "stdio, Streamable HTTP and SSE"); the endpoint goes in
  // `serverUrl`, its headers in `headers` (the same keys `hub import windsurf` reads).
  urlEntry: (url, headers) => ({ serverUrl: url, headers: { ...headers } }),
  notes: () => ['In Windsurf, refresh the MCP list in Cascade (or restart Windsurf).'],
};
