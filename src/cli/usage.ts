// What each `hub <command>` takes, in one table: the overview, `hub <command> --help` and the
// usage lines of errors all read it (no command module imports the CLI entry).
export const COMMANDS = {
  ps: {
    usage: 'hub-mcp ps [--status S] [--tag T] [--json]',
    summary: 'list processes started with hub-mcp start or an MCP client',
  },
  logs: {
    usage: 'hub-mcp logs <id> [-n N] [-f] [--grep RE] [--raw] [--json]',
    summary: 'show or follow a process log',
  },
  kill: {
    usage: 'hub-mcp kill <id>... [--signal SIG] [--grace MS] [--remove] [--json]',
    summary: 'stop processes and their groups',
  },
  start: {
    usage:
      'hub-mcp start [--name N] [--cwd D] [--env K=V]... [--tag T]... [--port N]... [--wait-for RE] [--timeout S] [--tty [--cols C] [--rows R]] [--restart no|on-failure|always] [--max-restarts N] [--json] -- <command>...',
    summary: 'start a process that outlives hub (one word after -- is a shell line)',
  },
  restart: {
    usage: 'hub-mcp restart <id> [--grace MS] [--json]',
    summary: 'run a process again under the same record',
  },
  send: {
    usage: 'hub-mcp send <id> [text] [--key K]... [--no-enter] [--wait-for RE] [--json]',
    summary: "type into a process's stdin or terminal and show what it answered",
  },
  attach: {
    usage: 'hub-mcp attach <id>',
    summary: 'watch a process live and type into it; Ctrl-] detaches (the process runs on)',
  },
  ui: {
    usage: 'hub-mcp ui [--port N] [--host H] [--no-open] [--foreground]',
    summary:
      'open the dashboard in a browser (processes, live logs, MCP servers, sessions, store health), served by the shared hub; --foreground serves it from this process until Ctrl-C',
  },
  servers: {
    usage:
      'hub-mcp servers [--json] | hub-mcp servers <name> [--json] | hub-mcp servers enable|disable <name> | hub-mcp servers configure <name> [--enable|--disable] [--per-session|--shared] [--allow T]... [--deny T]... [--no-allow] [--no-deny] [--env K=V]... [--arg A]... [--no-args] [--no-sandbox|--sandbox] [--sandbox-read P]... [--sandbox-write P|roots]... [--network all|none|host|HOST,...] [--json] | hub-mcp servers approve <name> [--tool T]... | hub-mcp servers forget <name>',
    summary:
      'list installed MCP servers; show one (changed texts old beside new); enable, disable or configure one; approve its changed tools; forget what you decided about an uninstalled one',
  },
  search: {
    usage: 'hub-mcp search <query> [--limit N] [--source catalog|official|npm]... [--json]',
    summary: 'find MCP servers',
  },
  install: {
    usage:
      'hub-mcp install <package>[@version] [--name N] [--env K=V]... [--arg A]... [--allow-scripts PKG|*]... [--no-start] [--verbose] [--json]',
    summary: 'install an MCP server from npm',
  },
  upgrade: {
    usage: 'hub-mcp upgrade <name> [--verbose] [--json]',
    summary: 'install the latest version of an installed server, keeping its env and args',
  },
  uninstall: {
    usage: 'hub-mcp uninstall <name>... [--purge] [--json]',
    summary: 'stop and remove installed servers (their data folders and your decisions about them stay unless --purge)',
  },
  config: {
    usage: 'hub-mcp config <client> [--scope project|user] [--http [--port N]] [--write | --dry-run] [--json]',
    summary: 'add hub to an MCP client',
  },
  import: {
    usage: 'hub-mcp import <client> [--scope project|user] [--no-start] [--remove [--yes]] [--json]',
    summary: "move a client's servers behind hub",
  },
  serve: {
    usage: 'hub-mcp serve [--port N] [--host H] [--rotate-token]',
    summary: 'serve MCP over Streamable HTTP (127.0.0.1:7717, bearer token) for clients that connect by URL',
  },
  login: { usage: 'hub-mcp login <server>', summary: 'sign in to a remote server (OAuth in a browser)' },
  logout: {
    usage: 'hub-mcp logout <server>',
    summary: "forget a remote server's sign-in (tokens, client registration)",
  },
  status: {
    usage: 'hub-mcp status [--json]',
    summary: 'show the shared hub: pid, uptime, socket, sessions and child servers',
  },
  stop: {
    usage: 'hub-mcp stop [--json]',
    summary: 'stop the shared hub and its child servers (dev processes keep running)',
  },
  audit: {
    usage:
      'hub-mcp audit [--since T] [--until T] [--server S] [--tool T] [--session ID] [--process ID] [--kind K] [--decisions] [--json] [-f]',
    summary: 'what was done through hub: tool calls, processes, installs, approvals (docs/audit.md)',
  },
} as const satisfies Record<string, { usage: string; summary: string }>;

export type CommandName = keyof typeof COMMANDS;

export const usageOf = (name: CommandName): string => `Usage: ${COMMANDS[name].usage}`;
