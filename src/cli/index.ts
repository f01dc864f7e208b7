// hub <command> for people: plain text for a terminal, --json for scripts. Each command
// lives in its own module, loaded only when used so `hub ps` does not load the proxy.
import { processIo, type CliCommand, type CliIo } from './command.js';
import { exitCodeFor, errorLine } from './errors.js';
import { COMMAND_NAME } from '../core/package-name.js';
import { renderHelp } from './help.js';
import { renderTable } from './table.js';
import { COMMANDS, type CommandName } from './usage.js';
import { setProcessActor } from '../core/actor.js';

const LOADERS: Record<CommandName, () => Promise<CliCommand>> = {
  ps: async () => (await import('./processes.js')).ps,
  logs: async () => (await import('./processes.js')).logs,
  kill: async () => (await import('./processes.js')).kill,
  start: async () => (await import('./start-command.js')).start,
  restart: async () => (await import('./interactive.js')).restart,
  send: async () => (await import('./interactive.js')).send,
  attach: async () => (await import('./attach.js')).attach,
  ui: async () => (await import('./ui.js')).ui,
  servers: async () => (await import('./servers/servers.js')).servers,
  search: async () => (await import('./servers/search.js')).search,
  install: async () => (await import('./servers/servers.js')).install,
  upgrade: async () => (await import('./servers/lifecycle.js')).upgrade,
  uninstall: async () => (await import('./servers/lifecycle.js')).uninstall,
  config: async () => (await import('./clients.js')).config,
  import: async () => (await import('./clients.js')).importServers,
  serve: async () => (await import('./serve.js')).serve,
  login: async () => (await import('./login.js')).login,
  logout: async () => (await import('./login.js')).logout,
  status: async () => (await import('./shared-hub.js')).status,
  stop: async () => (await import('./shared-hub.js')).stop,
  audit: async () => (await import('./audit.js')).audit,
};

function usage(): string {
  const commands = renderTable(Object.entries(COMMANDS).map(([name, { summary }]) => [name, summary]));
  return `Usage: hub-mcp [command] [options]\n\nWith no command, hub-mcp runs the stdio MCP server (what client configs start).\n\nCommands:\n${commands.replace(/^/gm, '  ')}\n\nhub-mcp <command> --help shows a command's options. Exit codes: 0 ok, 1 failed, 2 wrong usage.\n`;
}

export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic === undefined) {
      io.out(usage());
      return 0;
    }
    if (!Object.hasOwn(COMMANDS, topic)) {
      io.err(`${COMMAND_NAME}: no help for "${topic}": it is not a command. ${COMMAND_NAME} --help lists them.\n`);
      return 2;
    }
    io.out(renderHelp(topic as CommandName));
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${(await import('../core/version.js')).HUB_VERSION}\n`);
    return 0;
  }
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
  if (!command) {
    io.err(`${COMMAND_NAME}: unknown command "${name ?? ''}".\n\n${usage()}`);
    return 2;
  }
  // Every subcommand answers --help the same way, before its own parsing can refuse anything.
  const end = rest.indexOf('--');
  if ((end === -1 ? rest : rest.slice(0, end)).some(word => word === '--help' || word === '-h')) {
    io.out(renderHelp(name as CommandName));
    return 0;
  }
  let code: number;
  // What a command does is the person's doing (the audit log's "by": cli).
  setProcessActor('cli');
  try {
    code = await (await LOADERS[name as CommandName]())(rest, io);
  } catch (error) {
    io.err(errorLine(name!, error));
    code = exitCodeFor(error);
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
    const [{ currentStoreHealth }, { openContext }] = await Promise.all([
      import('../store/health.js'),
      import('../store/open-context.js'),
    ]);
    const { config, store } = openContext({ log: 'silent' });
    return await currentStoreHealth(config.paths, () => store.read());
  } catch {
    return undefined; // no usable config: the command itself has said so
  }
}
