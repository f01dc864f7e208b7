// `hub status` and `hub stop`: the shared hub of this HUB_HOME.
import { sharedHubStatus, stopSharedHub } from '../hub-link/control.js';
import { sharedHubPaths } from '../hub-link/paths.js';
import { openContext } from '../store/open-context.js';
import { parseCommandArgs } from './args.js';
import { EXIT_OK } from './errors.js';
import { renderTable } from './table.js';
import { sandboxStatus } from './sandbox-status.js';
import { CLI_LOG, type CliCommand } from './command.js';

const uptime = (since: string): string => {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(since)) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${(s / 3600).toFixed(1)}h`;
};

/** hub status: the shared hub of this HUB_HOME (pid, uptime, socket, version, sessions, children). */
export const status: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs('status', argv, { json: { type: 'boolean' } }, { positionals: false });
  const { config } = openContext({ log: CLI_LOG });
  const found = await sharedHubStatus(sharedHubPaths(config.home));
  const sandbox = await sandboxStatus(config);
  if (values.json) {
    const state = found ? { running: true, ...found.record, ...found.report } : { running: false };
    io.out(`${JSON.stringify({ ...state, sandbox }, null, 2)}\n`);
    return EXIT_OK;
  }
  io.out(`Sandbox: ${sandbox.text}\n`);
  if (!found) {
    io.out(
      `No shared hub runs for ${config.home}.${config.sharedHub.enabled ? ' The first client that starts hub starts one.' : ' Sharing is off (HUB_SHARED / sharedHub.enabled): each client runs its own hub.'}\n`,
    );
    return EXIT_OK;
  }
  const { record, report } = found;
  io.out(
    `Shared hub: pid ${record.pid}, version ${record.version}, up ${uptime(record.startedAt)}\nSocket: ${record.socket}\n`,
  );
  if (!report) {
    io.out('It did not answer on its socket (hub-mcp stop ends it).\n');
    return EXIT_OK;
  }
  if (report.dashboard !== undefined) io.out(`Dashboard: ${report.dashboard} (hub-mcp ui logs a browser in)\n`);
  io.out(`Sessions: ${report.sessions.length}\n`);
  if (report.sessions.length > 0)
    io.out(
      `${renderTable([
        ['ENTRY PID', 'CLIENT', 'SINCE', 'CWD'],
        ...report.sessions.map(s => [String(s.entryPid), s.client ?? '?', uptime(s.since), s.cwd]),
      ]).replace(/^/gm, '  ')}\n`,
    );
  io.out(`Child servers: ${report.children.length}\n`);
  if (report.children.length > 0)
    io.out(
      `${renderTable([['PGID', 'COMMAND'], ...report.children.map(c => [String(c.pgid), c.command])]).replace(/^/gm, '  ')}\n`,
    );
  return EXIT_OK;
};

/** hub stop: stops the shared hub; its child servers close, dev processes keep running. */
export const stop: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs('stop', argv, { json: { type: 'boolean' } }, { positionals: false });
  const { config, log } = openContext({ log: CLI_LOG });
  const pid = await stopSharedHub(sharedHubPaths(config.home), log);
  if (values.json) io.out(`${JSON.stringify({ stopped: pid ?? null })}\n`);
  else
    io.out(
      pid === undefined
        ? `No shared hub was running for ${config.home}.\n`
        : `Stopped the shared hub (pid ${pid}); its child servers are closed, dev processes keep running. Clients attached to it start a new one on their next message.\n`,
    );
  return EXIT_OK;
};
