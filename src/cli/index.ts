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
  let code: number;
  try {
    code = await (await command.load())(rest, io);
  } catch (error) {
    io.err(`hub ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  // A damaged store kept aside, or a HUB_HOME that cannot be written: said after every command
  // that uses the store, with a non-zero exit, until a person acts (store/health.ts).
  // A read-only HUB_HOME alone is said, but reads that worked still exit 0.
  if (name === 'config') return code;
  const health = await storeHealthNow();
  if (health?.warning === undefined) return code;
  io.err(`hub: warning: ${health.warning}\n`);
  return health.damaged && code === 0 ? 1 : code;
}

async function storeHealthNow() {
  try {
    const [{ loadConfig }, { currentStoreHealth }, { openStore }] = await Promise.all([import('../config.js'), import('../store/health.js'), import('../store/store.js')]);
    const { paths } = loadConfig(process.env);
    return await currentStoreHealth(paths, () => openStore(paths).read());
  } catch {
    return undefined; // no usable config: the command itself has said so
  }
}
