// `hub uninstall` and `hub upgrade` from a terminal.
import { errorMessage, HubError } from '../../core/errors.js';
import { installServer } from '../../registry/install/install.js';
import type { InstallContext } from '../../registry/install/context.js';
import type { InstallResult } from '../../registry/install/result.js';
import { uninstallServer } from '../../registry/installed/servers.js';
import type { ServerRecord } from '../../store/schema.js';
import { parseCommandArgs } from '../args.js';
import { errorLine, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import type { CliCommand, CliIo } from '../command.js';
import { terminalInstallContext, withManager } from './servers.js';
import { usageOf } from '../usage.js';

const notInstalled = (name: string) =>
  new HubError('NOT_FOUND', `No server named "${name}" is installed. Run hub-mcp servers to see them.`);

/** hub uninstall <name>...: stop each server and remove its record, tools and package folder. */
export const uninstall: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('uninstall', argv, {
    json: { type: 'boolean' },
    purge: { type: 'boolean' },
  });
  if (positionals.length === 0) {
    io.err(`hub-mcp uninstall: give the name of an installed server.\n${usageOf('uninstall')}\n`);
    return EXIT_USAGE;
  }
  const reports: unknown[] = [];
  let failed = false;
  await withManager(async ({ manager, context }) => {
    for (const name of positionals) {
      try {
        // --purge is the person's: their decisions about the server go with its data.
        const purge = values.purge === true;
        const result = await uninstallServer(name, { ...context, manager }, { purge, forgetDecisions: purge });
        reports.push(result);
        if (result.leftovers && !values.json)
          io.out(
            `${name} was not installed; removed what an unfinished install left: ${result.leftovers.join(', ')}.\n`,
          );
        else if (!values.json)
          io.out(
            `Uninstalled ${name}${result.folderRemoved ? ` (removed ${result.folderRemoved})` : ''}. Its log stays at ${result.logFile}.${
              result.dataKept
                ? ` Its data stays in ${result.dataKept} (hub-mcp uninstall --purge ${name} deletes it).`
                : result.dataRemoved
                  ? ` Deleted its data folder ${result.dataRemoved}.`
                  : ''
            }${
              result.decisionsKept
                ? ` Your decisions about it are kept for a later install under this name (${result.decisionsKept.join('; ')}); hub-mcp servers forget ${name} drops them.`
                : ''
            }\n`,
          );
      } catch (error) {
        failed = true;
        reports.push({ name, error: errorMessage(error) });
        io.err(errorLine('uninstall', error));
      }
    }
  });
  if (values.json) io.out(`${JSON.stringify(reports, null, 2)}\n`);
  return failed ? EXIT_FAILED : EXIT_OK;
};

// registry.install { upgrade: true }: installed beside the running version, swapped in with its
// env, args, scripts choice and data kept, rolled back when the new version does not start.
async function upgradeRecord(record: ServerRecord, context: InstallContext): Promise<InstallResult> {
  return installServer({ package: `${record.package}@latest`, name: record.name, upgrade: true }, context);
}

const describeResult = (io: CliIo, before: string | undefined, result: InstallResult): void => {
  if (result.upToDate) {
    io.out(
      `${result.name} is already at the latest version (${result.package ?? ''} ${result.version ?? '?'}); nothing changed.\n`,
    );
    return;
  }
  const now = result.version ?? '?';
  const change = before === now ? `already at ${now}; reinstalled` : `${before ?? '?'} → ${now}`;
  const state =
    result.missingEnv.length > 0
      ? `, not started: missing ${result.missingEnv.join(', ')}`
      : result.state === 'stopped'
        ? ''
        : `: ${result.tools.length} tools`;
  io.out(`Upgraded ${result.name} (${result.package ?? ''} ${change})${state}.\nLog: ${result.logFile}\n`);
};

/** hub upgrade <name>: the latest version of an npm-installed server, its env and args kept. */
export const upgrade: CliCommand = async (argv, io) => {
  const { values, positionals } = parseCommandArgs('upgrade', argv, {
    verbose: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  if (positionals.length !== 1) {
    io.err(`hub-mcp upgrade: give the name of one installed server.\n${usageOf('upgrade')}\n`);
    return EXIT_USAGE;
  }
  const name = positionals[0]!;
  const result = await withManager(async ({ manager, context }) => {
    const record = (await context.store.read()).servers[name];
    if (!record) throw notInstalled(name);
    if (record.mode !== 'npm' || record.package === undefined)
      throw new HubError(
        'INVALID_INPUT',
        `Server "${name}" is a registered command, not an npm install: update the program itself, then run hub-mcp install again with the same command.`,
      );
    const before = record.version;
    const installed = await upgradeRecord(
      record,
      terminalInstallContext(context, manager, io, values.verbose === true),
    );
    return { before, installed };
  });
  if (values.json)
    io.out(`${JSON.stringify({ ...result.installed, previousVersion: result.before ?? null }, null, 2)}\n`);
  else describeResult(io, result.before, result.installed);
  return EXIT_OK;
};
