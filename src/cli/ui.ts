import { spawn } from 'node:child_process';
import { HubError } from '../core/errors.js';
import { resolveExecutable } from '../core/executable.js';
import { createDashboard } from '../dashboard/server.js';
import { createProcessManager } from '../process/manager.js';
import { noClient } from '../proxy/client-side.js';
import { createServerManager } from '../proxy/server-manager.js';
import { openContext } from '../store/open-context.js';
import { parseCommandArgs } from './args.js';
import { CLI_LOG, type CliCommand, type CliIo } from './command.js';

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
  const login = dashboard.oneTimeLoginUrl();
  const opener = options.open ? resolveExecutable('xdg-open', process.env.PATH, process.cwd()) : undefined;
  if (opener && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
    spawn(opener, [login], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
    io.err(`hub: dashboard at ${dashboard.url} (opened in your browser; Ctrl-C stops it)\n`);
  } else io.err(`hub: dashboard at ${dashboard.url}; open this one-time login URL (Ctrl-C stops it):\n`);
  // The login URL alone on stdout, for scripts (and tests) to read.
  io.out(`${login}\n`);
  await new Promise<void>(resolve => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await dashboard.close();
  await servers.close();
  processes.close();
  return 0;
}

export const ui: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(
    'ui',
    argv,
    { port: { type: 'string' }, host: { type: 'string' }, 'no-open': { type: 'boolean' } },
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
  return runDashboardForeground(io, { host, port, open: values['no-open'] !== true });
};
