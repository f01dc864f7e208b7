// Each command's options and an example, for `hub-mcp <command> --help` and docs/cli.md.
import { renderTable } from './table.js';
import { COMMANDS, type CommandName } from './usage.js';

// Each command's options, one line each, and an example: `hub-mcp <command> --help` and
// docs/cli.md (scripts/docs-cli.mjs) print these. test/e2e/cli-help.test.ts checks every flag a
// command parses is listed here.

type Help = { readonly options: readonly (readonly [string, string])[]; readonly example: string };

const JSON_FLAG = ['--json', 'print JSON for scripts instead of text'] as const;

export const HELP: Record<CommandName, Help> = {
  ps: {
    options: [
      ['--status S', 'only processes in status S (running, exited, killed, failed)'],
      ['--tag T', 'only processes started with tag T'],
      JSON_FLAG,
    ],
    example: 'hub-mcp ps --status running',
  },
  logs: {
    options: [
      ['-n, --lines N', 'the last N lines (1 to 2000; default 100)'],
      ['-f, --follow', 'keep printing new output until the process ends (Ctrl-C stops)'],
      ['--grep RE', 'only lines matching the regular expression RE'],
      ['--raw', 'keep terminal escape sequences (colours, cursor moves)'],
      JSON_FLAG,
    ],
    example: 'hub-mcp logs web -n 50 --grep error',
  },
  kill: {
    options: [
      ['-s, --signal SIG', 'the first signal (default SIGTERM); SIGKILL follows after the grace'],
      ['--grace MS', 'milliseconds to wait before SIGKILL (default: stopGraceMs)'],
      ['--remove', 'also delete the record and its log'],
      JSON_FLAG,
    ],
    example: 'hub-mcp kill web --remove',
  },
  start: {
    options: [
      ['--name N', 'a name to use instead of the id (unique among running processes)'],
      ['--cwd D', 'the working folder (default: the current one)'],
      ['--env NAME=value', 'set an environment variable (repeatable)'],
      ['--tag T', 'a tag to filter by in ps (repeatable)'],
      ['--port N', 'the port it serves: shown in ps, and start waits until it accepts connections (repeatable)'],
      ['--wait-for RE', 'wait until a log line matches RE'],
      ['--timeout S', 'seconds --wait-for and --port wait (default 60); exit 1 when not ready by then'],
      ['--tty', 'run it in a terminal (for REPLs and prompts); --cols C and --rows R size it'],
      ['--restart P', 'no (default), on-failure or always'],
      ['--max-restarts N', 'at most N restarts by --restart (default 5)'],
      JSON_FLAG,
    ],
    example: "hub-mcp start --name web --port 3000 --env NODE_ENV=development -- 'npm run dev'",
  },
  restart: {
    options: [['--grace MS', 'milliseconds to wait before SIGKILL when stopping it'], JSON_FLAG],
    example: 'hub-mcp restart web',
  },
  send: {
    options: [
      ['-k, --key K', 'a key to press: Enter, Tab, Up, C-c, C-d... (repeatable)'],
      ['--no-enter', 'type the text without pressing Enter'],
      ['--wait-for RE', 'print output until a line matches RE (default: until it goes quiet)'],
      JSON_FLAG,
    ],
    example: "hub-mcp send repl '1 + 1'",
  },
  attach: { options: [], example: 'hub-mcp attach repl' },
  ui: {
    options: [
      ['--port N', 'the dashboard port (default: a free one)'],
      ['--host H', 'the address to listen on (default 127.0.0.1)'],
      ['--no-open', 'print the login URL instead of opening a browser'],
      ['--foreground', 'serve it from this process until Ctrl-C'],
    ],
    example: 'hub-mcp ui --no-open',
  },
  audit: {
    options: [
      ['--since T, --until T', 'a time (ISO) or how long ago (90m, 7d)'],
      ['--server S, --tool T', 'only this server / this tool'],
      ['--session ID, --process ID', 'only this session / this process'],
      ['--kind K', 'only call, process, install, uninstall, upgrade, configure or decision lines'],
      ['--decisions', 'only approvals and consent questions, with who answered'],
      ['-f', 'follow: print lines as they are written'],
      JSON_FLAG,
    ],
    example: 'hub-mcp audit --since 1h --server memory',
  },
  servers: {
    options: [
      ['enable|disable <name>', 'start or stop offering a server'],
      ['configure <name>', 'change its settings, with any of:'],
      ['  --enable, --disable', 'offer it or not'],
      ['  --per-session, --shared', 'one child per client session, or one for all'],
      ['  --allow T, --deny T', 'list only tools matching T / hide tools matching T (repeatable; * works)'],
      ['  --no-allow, --no-deny', 'drop the allow-list / the deny-list'],
      ['  --env K=V, --arg A', 'its environment and arguments (repeatable); --no-args drops the arguments'],
      ['  --no-sandbox, --sandbox', 'run it outside bubblewrap (asks you) / back inside'],
      ['  --sandbox-read P, --sandbox-write P|roots', 'grant a folder to read / to write (repeatable)'],
      [
        '  --network all|none|host|HOST,...',
        "its network: the internet but not this machine's services (the default), none, host (localhost included), or only the hosts named",
      ],
      ['approve <name>', 'approve its changed tools (--tool T for one)'],
      ['forget <name>', 'drop your decisions about an uninstalled server'],
      JSON_FLAG,
    ],
    example: 'hub-mcp servers configure github --deny delete_repository',
  },
  search: {
    options: [
      ['-n, --limit N', 'at most N results'],
      ['--source S', 'catalog, official or npm (repeatable; default all)'],
      JSON_FLAG,
    ],
    example: 'hub-mcp search postgres',
  },
  install: {
    options: [
      ['--name N', 'the server name hub uses (default: from the package name)'],
      ['--env K=V', 'an environment variable for the server (repeatable)'],
      ['--arg A', 'an argument for the server (repeatable)'],
      ['--allow-scripts PKG', "run this dependency's install scripts (repeatable; * for all)"],
      ['--no-start', 'install without starting it'],
      ['--verbose', "show npm's own output"],
      JSON_FLAG,
    ],
    example: 'hub-mcp install @modelcontextprotocol/server-memory',
  },
  upgrade: {
    options: [['--verbose', "show npm's own output"], JSON_FLAG],
    example: 'hub-mcp upgrade memory',
  },
  uninstall: {
    options: [['--purge', 'also delete its data folder and your decisions about it'], JSON_FLAG],
    example: 'hub-mcp uninstall memory --purge',
  },
  config: {
    options: [
      ['--scope S', 'project or user (default: what the client supports best)'],
      ['--exposure E', 'all, search or auto: which proxied tools this client lists'],
      ['--http', 'write the URL of hub-mcp serve instead of the stdio command (--port N)'],
      ['--write', 'merge the entry into the file (a backup is made first)'],
      ['--dry-run', 'show the change as a diff, write nothing'],
      JSON_FLAG,
    ],
    example: 'hub-mcp config claude-desktop --write',
  },
  import: {
    options: [
      ['--scope S', 'project or user'],
      ['--no-start', 'do not start the imported servers once to read their tools'],
      ['--remove', "remove the imported servers from the client's config (asks; --yes skips)"],
      JSON_FLAG,
    ],
    example: 'hub-mcp import cursor --remove',
  },
  serve: {
    options: [
      ['--port N', 'the port (default 7717)'],
      ['--host H', 'the address to listen on (default 127.0.0.1)'],
      ['--rotate-token', 'make a new bearer token (clients need the new one)'],
    ],
    example: 'hub-mcp serve --port 7717',
  },
  login: { options: [], example: 'hub-mcp login linear' },
  logout: { options: [], example: 'hub-mcp logout linear' },
  status: { options: [JSON_FLAG], example: 'hub-mcp status' },
  stop: { options: [JSON_FLAG], example: 'hub-mcp stop' },
};

/** `hub-mcp <command> --help`: usage, what it does, its options one per line, an example. */
export function renderHelp(name: CommandName): string {
  const { usage, summary } = COMMANDS[name];
  const { options, example } = HELP[name];
  const optionLines = options.length > 0 ? `\nOptions:\n${renderTable(options).replace(/^/gm, '  ')}\n` : '';
  return `Usage: ${usage}\n${summary}\n${optionLines}\nExample:\n  ${example}\n`;
}
