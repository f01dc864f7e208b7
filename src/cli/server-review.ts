import { HubError } from '../core/errors.js';
import { integrityReport, reportLines } from '../registry/tool-review.js';
import { openContext } from '../store/open-context.js';
import type { CliIo } from './command.js';
import { CLI_LOG } from './command.js';

// `hub servers <name>`: what a person decided about one server and what waits for them, read
// from the store only (nothing is started). Unlike registry.list for the agent, the new text of a
// withheld definition is shown here, beside the approved one, with the markers hub found in it.

export async function reviewServer(name: string, io: CliIo, json: boolean): Promise<number> {
  const context = openContext({ log: CLI_LOG });
  const record = (await context.store.read()).servers[name];
  if (!record)
    throw new HubError(
      'NOT_FOUND',
      `No server named "${name}" is installed; \`hub servers\` lists the installed servers.`,
    );
  const integrity = integrityReport(context.config.paths, record, context.config.integrity, 'person');
  if (json) {
    io.out(`${JSON.stringify({ name, settings: record.settings ?? {}, integrity }, null, 2)}\n`);
    return 0;
  }
  const settings = record.settings;
  const lines = [
    `${name}: ${settings?.enabled === false ? 'disabled' : 'enabled'}${record.package ? ` (${record.package}@${record.version ?? '?'})` : ` (${record.command})`}`,
    ...(settings?.allow ? [`  allow: ${settings.allow.join(', ')}`] : []),
    ...(settings?.deny ? [`  deny: ${settings.deny.join(', ')}`] : []),
    ...reportLines(name, integrity),
    ...(integrity.changed ? [] : ['Nothing waits for approval.']),
  ];
  io.out(`${lines.join('\n')}\n`);
  return 0;
}
