// `hub servers <name>` and `hub servers forget`: a person's decisions about one server.
import { sandboxLine, sandboxView } from '../../registry/installed/sandbox-settings.js';
import { HubError } from '../../core/errors.js';
import { describeKept } from '../../registry/decisions/kept-decisions.js';
import { integrityReport, reportLines } from '../../registry/decisions/tool-review.js';
import { openContext } from '../../store/open-context.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo } from '../command.js';
import { CLI_LOG } from '../command.js';
import { EXIT_USAGE } from '../errors.js';
import { usageOf } from '../usage.js';

// `hub servers <name>`: what a person decided about one server and what waits for them, read
// from the store only (nothing is started). Unlike registry.list for the agent, the new text of a
// withheld definition is shown here, beside the approved one, with the markers hub found in it.

export async function reviewServer(name: string, io: CliIo, json: boolean): Promise<number> {
  const context = openContext({ log: CLI_LOG });
  const record = (await context.store.read()).servers[name];
  if (!record)
    throw new HubError(
      'NOT_FOUND',
      `No server named "${name}" is installed; \`hub-mcp servers\` lists the installed servers.`,
    );
  const integrity = integrityReport(context.config.paths, record, context.config.integrity, 'person');
  if (json) {
    const sandbox = sandboxView(record, context.config);
    io.out(`${JSON.stringify({ name, settings: record.settings ?? {}, integrity, sandbox }, null, 2)}\n`);
    return 0;
  }
  const settings = record.settings;
  const lines = [
    `${name}: ${settings?.enabled === false ? 'disabled' : 'enabled'}${record.package ? ` (${record.package}@${record.version ?? '?'})` : ` (${record.command})`}`,
    ...(settings?.allow ? [`  allow: ${settings.allow.join(', ')}`] : []),
    ...(settings?.deny ? [`  deny: ${settings.deny.join(', ')}`] : []),
    `  ${sandboxLine(sandboxView(record, context.config))}`,
    ...reportLines(name, integrity),
    ...(integrity.changed ? [] : ['Nothing waits for approval.']),
  ];
  io.out(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * `hub servers forget <name>`: drops the person's decisions kept since the server was uninstalled
 * (disabled, allow/deny, approvals), so a later install under the name starts afresh.
 */
export async function forgetServer(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals } = parseCommandArgs('servers', argv, {});
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) {
    io.err(`hub-mcp servers forget: give one server name.\n${usageOf('servers')}\n`);
    return EXIT_USAGE;
  }
  const context = openContext({ log: CLI_LOG });
  const forgotten = await context.store.update(data => {
    if (data.servers[name])
      throw new HubError(
        'INVALID_INPUT',
        `"${name}" is installed: its settings are changed with \`hub-mcp servers configure ${name}\`; forget drops the decisions kept after an uninstall.`,
      );
    const kept = data.kept[name];
    delete data.kept[name];
    return kept;
  });
  io.out(
    forgotten
      ? `Forgot your decisions about ${name} (${forgotten.source}): ${describeKept(forgotten).join('; ') || 'its approved tool definitions'}. A later install under this name starts afresh.\n`
      : `Nothing was kept for ${name}.\n`,
  );
  return 0;
}
