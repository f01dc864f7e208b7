// What each `hub <command>` takes, in one table: the overview, `hub <command> --help` and the
// usage lines of errors all read it (no command module imports the CLI entry).
export const COMMANDS = {
  ps: { usage: 'hub ps [--status S] [--tag T] [--json]', summary: 'list processes started with start_process' },
  logs: { usage: 'hub logs <id> [-n N] [-f] [--grep RE] [--raw] [--json]', summary: 'show or follow a process log' },
  kill: {
    usage: 'hub kill <id>... [--signal SIG] [--grace MS] [--remove] [--json]',
    summary: 'stop processes and their groups',
  },
  servers: {
    usage:
      'hub servers [--json] | hub servers enable|disable <name> | hub servers configure <name> [--enable|--disable] [--allow T]... [--deny T]... [--no-allow] [--no-deny] [--env K=V]... [--arg A]... [--no-args] [--json] | hub servers approve <name> [--tool T]...',
    summary: 'list installed MCP servers; enable, disable or configure one; approve its changed tools',
  },
  search: {
    usage: 'hub search <query> [--limit N] [--source catalog|official|npm]... [--json]',
    summary: 'find MCP servers',
  },
  install: {
    usage:
      'hub install <package>[@version] [--name N] [--env K=V]... [--arg A]... [--allow-scripts PKG|*]... [--no-start] [--verbose] [--json]',
    summary: 'install an MCP server from npm',
  },
  upgrade: {
    usage: 'hub upgrade <name> [--verbose] [--json]',
    summary: 'install the latest version of an installed server, keeping its env and args',
  },
  uninstall: {
    usage: 'hub uninstall <name>... [--purge] [--json]',
    summary: 'stop and remove installed servers (their data folders stay unless --purge)',
  },
  config: {
    usage: 'hub config <client> [--scope project|user] [--write | --dry-run] [--json]',
    summary: 'add hub to an MCP client',
  },
  import: {
    usage: 'hub import <client> [--scope project|user] [--no-start] [--remove [--yes]] [--json]',
    summary: "move a client's servers behind hub",
  },
} as const satisfies Record<string, { usage: string; summary: string }>;

export type CommandName = keyof typeof COMMANDS;

export const usageOf = (name: CommandName): string => `Usage: ${COMMANDS[name].usage}`;
