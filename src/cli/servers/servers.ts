// `hub servers` and `hub install`: the ServerManager driven with no client, consent by typing.
import { scriptsChoiceOf } from '../../registry/decisions/scripts-choice.js';
import { HubError } from '../../core/errors.js';
import { noClient } from '../../proxy/sessions/client-side.js';
import { createServerManager, type ServerManager } from '../../proxy/server-manager.js';
import { listPendingInstalls, type PendingInstall } from '../../registry/install/background.js';
import { catalogHints, suggestServerName } from '../../registry/install/hints.js';
import { installServer, type InstallContext } from '../../registry/install/install.js';
import { toSummary } from '../../registry/installed/servers.js';
import { openContext, type HubContext } from '../../store/open-context.js';
import { sharedView } from './server-view.js';
import { renderTable } from '../table.js';
import { parseCommandArgs } from '../args.js';
import { EXIT_USAGE } from '../errors.js';
import { CLI_LOG, type CliCommand, type CliIo } from '../command.js';
import { usageOf } from '../usage.js';
import { npmLinePrinter } from './npm-output.js';

// The CLI drives the same ServerManager as the MCP server, with no client: nothing is sent
// anywhere, and children it starts are closed before it returns.
/** An install run from a terminal: typing the command is the consent; npm and steps go to stderr. */
export function terminalInstallContext(
  context: HubContext,
  manager: ServerManager,
  io: CliIo,
  verbose: boolean,
): InstallContext {
  return {
    ...context,
    // The person watches the install in the terminal: it is never sent to the background.
    config: { ...context.config, install: { ...context.config.install, foregroundMs: Number.POSITIVE_INFINITY } },
    manager,
    confirm: async () => undefined,
    // Typing it is the person's own choice; they are told what it drops.
    confirmUndo: async question => {
      io.err(
        `hub: ${question.name} was ${question.was}; your decisions about it are dropped: ${question.undone.join('; ')}\n`,
      );
    },
    deriveName: suggestServerName,
    lookup: catalogHints,
    pathEnv: process.env.PATH,
    onNpmLine: npmLinePrinter(io, verbose),
    progress: (message, heartbeat) => {
      if (!heartbeat) io.err(`hub: ${message}\n`);
    },
  };
}

export async function withManager<T>(
  fn: (deps: { manager: ServerManager; context: HubContext }) => Promise<T>,
): Promise<T> {
  const context = openContext({ log: CLI_LOG });
  const manager = createServerManager({ ...context, client: noClient });
  try {
    return await fn({ manager, context });
  } finally {
    await manager.close();
  }
}

export const servers: CliCommand = async (argv, io) => {
  const settings = await (await import('./servers-settings.js')).serversSettings(argv, io);
  if (settings !== undefined) return settings;
  const [first, ...rest] = argv;
  if (first === 'forget') return (await import('./server-review.js')).forgetServer(rest, io);
  // `hub servers <name>`: one server's decisions and what waits for approval, for the person.
  if (first !== undefined && !first.startsWith('-')) {
    const { values } = parseCommandArgs('servers', rest, { json: { type: 'boolean' } }, { positionals: false });
    return (await import('./server-review.js')).reviewServer(first, io, values.json === true);
  }
  const { values } = parseCommandArgs('servers', argv, { json: { type: 'boolean' } }, { positionals: false });
  const { list, pending, logs } = await withManager(async ({ manager, context }) => {
    const records = (await context.store.read()).servers;
    const servers = (await manager.status()).map(view => ({
      ...sharedView(toSummary(view), records[view.name], context.config.paths),
      ...(records[view.name]?.settings?.enabled === false && { disabled: true }),
    }));
    // Installs a hub runs in the background (registry.install past its answer budget): a first
    // install has no record yet, an upgrade or build of an installed server has one.
    return {
      list: servers,
      pending: listPendingInstalls(context.config),
      logs: context.config.paths.serverLog('<name>'),
    };
  });
  const installed = new Set(list.map(s => s.name));
  const fresh = pending.filter(entry => !installed.has(entry.name));
  if (values.json) {
    const installing = fresh.map(entry => ({ ...entry, state: pendingState(entry), tools: [], background: true }));
    const servers = list.map(s => {
      const at = pending.find(entry => entry.name === s.name);
      return at ? { ...s, background: { state: at.state, step: at.step, startedAt: at.startedAt } } : s;
    });
    io.out(`${JSON.stringify([...servers, ...installing], null, 2)}\n`);
    return 0;
  }
  if (list.length === 0 && fresh.length === 0) {
    io.out('No MCP servers installed. Try: hub-mcp search <query>, then hub-mcp install <package>.\n');
    return 0;
  }
  const rows = [
    ['NAME', 'PACKAGE', 'STATE', 'TOOLS', 'CALLS', 'ERRORS'],
    ...list.map(s => [
      s.name,
      s.package ? `${s.package}@${s.version ?? '?'}` : `(command)`,
      s.disabled ? 'disabled' : s.missingEnv.length > 0 && s.state === 'stopped' ? 'needs env' : s.state,
      String(s.tools.length),
      String(s.calls),
      String(s.errors),
    ]),
    ...fresh.map(entry => [entry.name, entry.package, pendingState(entry), '-', '-', '-']),
  ];
  const notes = [
    ...list
      .filter(s => s.missingEnv.length > 0)
      .map(
        s =>
          `${s.name}: missing ${s.missingEnv.join(', ')}; set it with hub-mcp install ${s.package ?? '<package>'} --name ${s.name} ${s.missingEnv.map(key => `--env ${key}=...`).join(' ')}`,
      ),
    ...pending.map(entry => pendingNote(entry, installed.has(entry.name))),
  ];
  io.out(
    `${renderTable(rows)}\n${notes.map(note => `\n${note}`).join('')}\n\nState and calls are those of every running hub. Logs: ${logs}\n`,
  );
  return 0;
};

const pendingState = (entry: PendingInstall): string =>
  entry.state === 'installing' ? 'installing' : 'install failed';

function pendingNote(entry: PendingInstall, installed: boolean): string {
  const since = entry.startedAt.slice(11, 19);
  if (entry.state === 'failed')
    return installed
      ? `${entry.name}: the last upgrade or build failed: ${entry.step}`
      : `${entry.name}: the install failed: ${entry.step}`;
  return installed
    ? `${entry.name}: an upgrade or build is at work in the background since ${since} UTC (now: ${entry.step})`
    : `${entry.name}: installing in the background since ${since} UTC (now: ${entry.step}); hub-mcp servers shows it once it is ready`;
}

export const install: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('install', argv, {
    name: { type: 'string' },
    env: { type: 'string', multiple: true },
    arg: { type: 'string', multiple: true },
    'allow-scripts': { type: 'string', multiple: true },
    'no-start': { type: 'boolean' },
    verbose: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const [spec, ...extra] = positionals;
  if (spec === undefined || extra.length > 0) {
    io.err(`hub-mcp install: give one package.\n${usageOf('install')}\n`);
    return EXIT_USAGE;
  }
  const env: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new HubError('INVALID_INPUT', `--env "${pair.split('=')[0] ?? ''}" must be KEY=VALUE.`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const result = await withManager(({ manager, context }) =>
    installServer(
      {
        package: spec,
        name: values.name,
        args: values.arg,
        env,
        start: values['no-start'] !== true,
        // Named packages may run their install scripts; "*" allows every package's.
        ...(values['allow-scripts'] && { allowScripts: scriptsChoiceOf(values['allow-scripts']) }),
      },
      terminalInstallContext(context, manager, io, values.verbose === true),
    ),
  );
  if (values.json) io.out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const what = `${result.name} (${result.package ?? spec}@${result.version ?? '?'})`;
    const head =
      result.missingEnv.length > 0
        ? `Installed ${what}, not started: missing ${result.missingEnv.join(', ')} (run hub-mcp install ${spec} --name ${result.name} --env KEY=VALUE).`
        : result.state === 'stopped'
          ? `Installed ${what}; not started (its tools are listed after its first start).`
          : `Installed ${what}: ${result.tools.length} tools.`;
    io.out(
      `${head}\n${result.tools.map(tool => `  ${tool}\n`).join('')}Run as: ${result.command}\nLog: ${result.logFile}\n`,
    );
  }
  return 0;
};
