// registry.install { package, allowScripts } for a server that is already installed: run the
// now-allowed install scripts in its folder (no second download), after the same consent.
import type { ServerRecord } from '../store/schema.js';
import type { InstallContext } from './install-context.js';
import type { AllowScripts, SkippedScript } from './install-scripts.js';
import { formatCommandLine } from './install-target.js';
import { npmSettings } from './npm-config.js';
import { buildAllowedScripts } from './npm-install.js';

export async function rebuildExisting(
  record: ServerRecord,
  allowScripts: AllowScripts,
  context: InstallContext,
): Promise<{ skippedScripts: SkippedScript[] } | undefined> {
  const dir = record.cwd ?? context.config.paths.serverDir(record.name);
  await context.confirm({
    name: record.name,
    package: record.package,
    installLine: `cd ${formatCommandLine(dir, [])} && npm rebuild ${allowScripts === true ? '<every package with install scripts>' : (allowScripts || []).join(' ')}`,
    launchLine: formatCommandLine(record.command, record.args),
  });
  // A running server holds the old (unbuilt) module: reconfigure restarts it afterwards.
  await context.manager.stop(record.name);
  const built = await buildAllowedScripts({
    dir,
    allowScripts,
    log: context.log,
    settings: await npmSettings(),
    ...(record.package !== undefined && { spec: record.package }),
    onLine: line => context.onNpmLine?.(line),
    onStep: (message, heartbeat) => context.progress?.(message, heartbeat),
    signal: context.signal,
  });
  return { skippedScripts: built.skippedScripts };
}
