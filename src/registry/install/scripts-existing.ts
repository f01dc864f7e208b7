// registry.install { package, allowScripts } for a server that is already installed: run the
// now-allowed install scripts in its folder (no second download), after the same consent.
import type { ServerRecord } from '../../store/schema.js';
import type { InstallContext } from './context.js';
import { inForeground } from './foreground.js';
import type { InstallResult } from './result.js';
import type { AllowScripts } from '../npm/scripts.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { npmSettings } from '../npm/config.js';
import { buildAllowedScripts } from '../npm/install.js';

/** Builds the allowed scripts, then `after` (the reconfigure and restart), within the install budget. */
export async function rebuildExisting(
  record: ServerRecord,
  allowScripts: AllowScripts,
  context: InstallContext,
  after: (running: InstallContext) => Promise<InstallResult>,
): Promise<InstallResult> {
  // The install folder (its cwd is the data folder since data folders exist).
  const { config } = context;
  const dir = config.paths.serverDir(record.name);
  await context.confirm({
    name: record.name,
    package: record.package,
    installLine: `cd ${formatCommandLine(dir, [])} && npm rebuild ${allowScripts === true ? '<every package with install scripts>' : (allowScripts || []).join(' ')}`,
    launchLine: formatCommandLine(record.command, record.args),
  });
  const names = allowScripts === true ? 'every package with install scripts' : (allowScripts || []).join(', ');
  const firstStep = `npm: running install scripts of ${names}`;
  // Runs with the caller's progress and cancel while it waits, without them once in the background.
  const run = async (running: InstallContext): Promise<InstallResult> => {
    // A running server holds the old (unbuilt) module: `after` restarts it.
    await running.manager.stop(record.name);
    const built = await buildAllowedScripts({
      dir,
      allowScripts,
      log: running.log,
      settings: await npmSettings(running.npmEnv),
      env: running.npmEnv,
      timeoutMs: config.install.npmTimeoutMs,
      ...(record.package !== undefined && { spec: record.package }),
      onLine: line => running.onNpmLine?.(line),
      onStep: (message, heartbeat) => running.progress?.(message, heartbeat),
      signal: running.signal,
    });
    return { ...(await after(running)), skippedScripts: built.skippedScripts };
  };
  return inForeground(
    {
      name: record.name,
      package: record.package ?? record.name,
      firstStep,
      run,
      shown: {
        ...(record.package !== undefined && { package: record.package }),
        ...(record.version !== undefined && { version: record.version }),
        command: formatCommandLine(record.command, record.args),
        logFile: config.paths.serverLog(record.name),
      },
      next: (step, waited) =>
        `Still building after ${waited} s (now: ${step}); it goes on in the background and the server starts again when it is done. registry.list { server: "${record.name}" } shows the step; tools/list_changed announces its tools.`,
    },
    context,
  );
}
