// hub <command> for people: plain text for a terminal, --json for scripts. Each command
// lives in its own module, loaded only when used so `hub ps` does not load the proxy.
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export type CliCommand = (argv: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  ps: { summary: 'list processes started with start_process', load: async () => (await import('./processes.js')).ps },
  logs: { summary: 'hub logs <id> [-n N] [-f]: show or follow a process log', load: async () => (await import('./processes.js')).logs },
  kill: { summary: 'hub kill <id> [--signal SIG] [--remove]: stop a process and its group', load: async () => (await import('./processes.js')).kill },
  servers: { summary: 'list installed MCP servers', load: async () => (await import('./servers.js')).servers },
  search: { summary: 'hub search <query>: find MCP servers', load: async () => (await import('./search.js')).search },
  install: { summary: 'hub install <package> [--name N]: install an MCP server from npm', load: async () => (await import('./servers.js')).install },
  config: { summary: 'hub config <client> [--write] [--dry-run]: add hub to an MCP client', load: async () => (await import('./clients.js')).config },
  import: { summary: 'hub import <client> [--remove]: move a client\'s servers behind hub', load: async () => (await import('./clients.js')).importServers },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map(name => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return `Usage: hub [command] [--json]\n\nWith no command, hub runs the stdio MCP server (what client configs start).\n\nCommands:\n${lines.join('\n')}\n`;
}

export async function runCli(argv: readonly string[], io: CliIo = { out: t => process.stdout.write(t), err: t => process.stderr.write(t) }): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${(await import('../version.js')).HUB_VERSION}\n`);
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    io.err(`hub: unknown command "${name ?? ''}".\n\n${usage()}`);
    return 2;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    io.err(`hub ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
