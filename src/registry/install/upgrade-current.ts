// An upgrade that finds the latest version already installed: nothing to do, the server as it is.
import type { ServerRecord } from '../../store/schema.js';
import type { InstallContext } from './context.js';
import type { InstallResult } from './result.js';
import { formatCommandLine } from '../../core/shell-quote.js';

/** What an upgrade was asked to change (upgrade.ts UpgradeOptions; kept apart: no import cycle). */
interface Asked {
  readonly range?: string | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly args?: readonly unknown[] | undefined;
  readonly allowScripts?: unknown;
}

/**
 * An upgrade to "latest" that found the installed version, with no setting to change: nothing to
 * swap, restart or re-approve. Other asks (a version, env, args, install scripts) go on as before.
 */
export function nothingToUpgrade(record: ServerRecord, fresh: string, options: Asked): boolean {
  return (
    (options.range === undefined || options.range === 'latest') &&
    fresh === record.version &&
    options.args === undefined &&
    options.allowScripts === undefined &&
    Object.entries(options.env ?? {}).every(([key, value]) => record.env?.[key] === value)
  );
}

/** What registry.install { upgrade: true } answers then: the server as it is. */
export async function currentResult(record: ServerRecord, context: InstallContext): Promise<InstallResult> {
  const [status] = await context.manager.status(record.name);
  return {
    name: record.name,
    ...(record.package !== undefined && { package: record.package }),
    ...(record.version !== undefined && { version: record.version }),
    mode: record.mode,
    command: formatCommandLine(record.command, record.args),
    state: status?.state ?? 'stopped',
    tools: status?.tools ?? [],
    missingEnv: [],
    logFile: context.config.paths.serverLog(record.name),
    upToDate: true,
    next: `${record.package ?? record.name}@${record.version ?? '?'} is already the latest version; nothing was changed.`,
  };
}
