// `hub ui`: the dashboard, served by the shared hub or by this process in the foreground.
import { spawn } from 'node:child_process';
import { HubError } from '../core/errors.js';
import { resolveExecutable } from '../core/executable.js';
import { createDashboard } from '../dashboard/server.js';
import { sharedHubDashboard } from '../hub-link/control.js';
import { sharedHubPaths } from '../hub-link/paths.js';
import { createProcessManager } from '../process/manager.js';
import { noClient } from '../proxy/sessions/client-side.js';
import { createServerManager } from '../proxy/server-manager.js';
import { openContext } from '../store/open-context.js';
import { parseCommandArgs } from './args.js';
import { CLI_LOG, type CliCommand, type CliIo } from './command.js';
import { platform } from '../core/platform/platform.js';

export interface ForegroundOptions {
  readonly host: string;
  readonly port: number;
  readonly open: boolean;
}

/**
 * `hub ui` in the foreground: this process serves the dashboard over the same ServerManager and
 * ProcessManager the CLI builds, until Ctrl-C. One function, so `hub ui` can ask a shared hub
 * to serve it instead.
 */
export async function runDashboardForeground(io: CliIo, options: ForegroundOptions): Promise<number> {
  const context = openContext({ log: CLI_LOG });
  const { config } = context;
  const servers = createServerManager({ ...context, client: noClient });
  const processes = createProcessManager({
    paths: config.paths,
    store: context.store,
    log: context.log,
    maxRunning: config.maxRunningProcesses,
    logCapBytes: config.logCapBytes,
    logReadBytes: config.resultCapBytes,
  });
  const dashboard = await createDashboard(
    { ...context, servers, processes },
    { host: options.host, port: options.port },
  ).catch(async (error: unknown) => {
    await servers.close();
    processes.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new HubError(
        'INVALID_INPUT',
        `--port ${options.port} is in use on ${options.host}; give another, or leave --port out for a free one.`,
      );
    throw error;
  });
  show(io, dashboard.url, dashboard.oneTimeLoginUrl(), options.open, 'Ctrl-C stops it');
  await new Promise<void>(resolve => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await dashboard.close();
  await servers.close();
  processes.close();
  return 0;
}

/** Opens the login URL in the person's browser when there is one; the URL alone goes to stdout. */
function show(io: CliIo, url: string, login: string, open: boolean, lifetime: string): void {
  // xdg-open needs a display; macOS's open does not (core/platform/platform.ts).
  const { command, needsDisplay } = platform().tools.opener;
  const opener = open ? resolveExecutable(command, process.env.PATH, process.cwd()) : undefined;
  if (opener && (!needsDisplay || process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
    spawn(opener, [login], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
    io.err(`hub: dashboard at ${url} (opened in your browser; ${lifetime})\n`);
  } else io.err(`hub: dashboard at ${url}; open this one-time login URL (${lifetime}):\n`);
  // The login URL alone on stdout, for scripts (and tests) to read.
  io.out(`${login}\n`);
}

export const ui: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(
    'ui',
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'no-open': { type: 'boolean' },
      foreground: { type: 'boolean' },
    },
    { positionals: false },
  );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new HubError('INVALID_INPUT', `--port must be a whole number from 0 to 65535 (0 picks a free one).`);
  const host = values.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new HubError(
      'INVALID_INPUT',
      `--host must be a loopback address (127.0.0.1, localhost or ::1): the dashboard controls this machine.`,
    );
  const open = values['no-open'] !== true;
  const { config } = openContext({ log: CLI_LOG });
  if (values.foreground === true || !config.sharedHub.enabled) return runDashboardForeground(io, { host, port, open });
  // Served by the shared hub: the same servers, sessions and call counts the clients use, and it
  // stays up with that hub (while a page is open it does not exit idle).
  const reply = await sharedHubDashboard(config.home, sharedHubPaths(config.home), process.env, { host, port });
  if (reply.hub === 'error')
    throw new HubError(
      'INVALID_INPUT',
      `${reply.message} (hub-mcp ui --foreground serves it from this process instead)`,
    );
  const moved = port !== 0 && !reply.url.endsWith(`:${port}`);
  if (reply.already && moved)
    io.err(
      `hub: the shared hub already serves the dashboard on another port; hub-mcp stop, then hub-mcp ui --port ${port} moves it.\n`,
    );
  show(io, reply.url, reply.login, open, 'served by the shared hub; hub-mcp stop ends it');
  return 0;
};
