// `hub servers configure|enable|disable|approve`: per-server settings from a terminal.
import { HubError } from '../../core/errors.js';
import { configureServer, type ConfigureRequest, type ConfigureResult } from '../../registry/installed/settings.js';
import { reportLines, toolChanges } from '../../registry/decisions/tool-review.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo } from '../command.js';
import { EXIT_USAGE } from '../errors.js';
import { noClient } from '../../proxy/sessions/client-side.js';
import { createServerManager } from '../../proxy/server-manager.js';
import { openContext } from '../../store/open-context.js';
import { CLI_LOG } from '../command.js';
import { usageOf } from '../usage.js';
import { sandboxLine } from '../../registry/installed/sandbox-settings.js';
import { sandboxRequest } from './sandbox-flags.js';

// `hub servers configure|enable|disable|approve <name>`: per-server settings from a terminal, the
// same work as registry.configure (registry/installed/settings.ts). Typing the command is the
// person's consent, so nothing is asked; env values are never printed.

export const SETTINGS_SUBCOMMANDS = ['configure', 'enable', 'disable', 'approve'] as const;
type Subcommand = (typeof SETTINGS_SUBCOMMANDS)[number];

function envPairs(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (pairs === undefined) return undefined;
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0)
      throw new HubError('INVALID_INPUT', `--env "${pair.split('=')[0] ?? ''}" must be KEY=VALUE (KEY= removes it).`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

function request(sub: Subcommand, name: string, argv: readonly string[]): { request: ConfigureRequest; json: boolean } {
  if (sub === 'enable' || sub === 'disable') {
    const { values } = parseCommandArgs('servers', argv, { json: { type: 'boolean' } }, { positionals: false });
    return { request: { server: name, enabled: sub === 'enable' }, json: values.json === true };
  }
  if (sub === 'approve') {
    const { values } = parseCommandArgs(
      'servers',
      argv,
      { tool: { type: 'string', multiple: true }, json: { type: 'boolean' } },
      { positionals: false },
    );
    return { request: { server: name, approve: values.tool ?? ['*'] }, json: values.json === true };
  }
  const { values } = parseCommandArgs(
    'servers',
    argv,
    {
      enable: { type: 'boolean' },
      disable: { type: 'boolean' },
      'per-session': { type: 'boolean' },
      shared: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      'no-allow': { type: 'boolean' },
      'no-deny': { type: 'boolean' },
      env: { type: 'string', multiple: true },
      arg: { type: 'string', multiple: true },
      'no-args': { type: 'boolean' },
      sandbox: { type: 'boolean' },
      'no-sandbox': { type: 'boolean' },
      'sandbox-read': { type: 'string', multiple: true },
      'sandbox-write': { type: 'string', multiple: true },
      'no-sandbox-read': { type: 'boolean' },
      'no-sandbox-write': { type: 'boolean' },
      network: { type: 'string' },
      json: { type: 'boolean' },
    },
    { positionals: false },
  );
  if (values.enable && values.disable) throw new HubError('INVALID_INPUT', `Give --enable or --disable, not both.`);
  if (values['per-session'] && values.shared)
    throw new HubError('INVALID_INPUT', `Give --per-session or --shared, not both.`);
  const allow = values['no-allow'] ? [] : values.allow;
  const deny = values['no-deny'] ? [] : values.deny;
  const args = values['no-args'] ? [] : values.arg;
  const env = envPairs(values.env);
  const sandbox = sandboxRequest(values);
  return {
    request: {
      server: name,
      ...((values.enable || values.disable) && { enabled: values.enable === true }),
      ...((values['per-session'] || values.shared) && { perSession: values['per-session'] === true }),
      ...((allow || deny) && { tools: { ...(allow && { allow }), ...(deny && { deny }) } }),
      ...(env && { env }),
      ...(args && { args }),
      ...(sandbox && { sandbox }),
    },
    json: values.json === true,
  };
}

function render(result: ConfigureResult): string {
  return [
    `${result.name}: ${result.enabled ? 'enabled' : 'disabled'}${result.perSession ? ', per-session' : ''}, ${result.listed} tools listed`,
    ...(result.tools.allow ? [`  allow: ${result.tools.allow.join(', ')}`] : []),
    ...(result.tools.deny ? [`  deny: ${result.tools.deny.join(', ')}`] : []),
    ...(result.envKeys.length > 0 ? [`  env: ${result.envKeys.join(', ')} (values not shown)`] : []),
    ...(result.args.length > 0 ? [`  args: ${result.args.join(' ')}`] : []),
    ...(result.approved ? [`  approved: ${result.approved.join(', ') || 'nothing was waiting for approval'}`] : []),
    ...reportLines(result.name, result.integrity),
    `  ${sandboxLine(result.sandbox)}`,
    'Every running hub applies this now (tools/list_changed is sent); a child whose env or args changed starts again with them.',
  ].join('\n');
}

/** `hub servers <sub> <name> …`; undefined when argv is not one of these subcommands. */
export async function serversSettings(argv: readonly string[], io: CliIo): Promise<number | undefined> {
  const [sub, name, ...rest] = argv;
  if (!SETTINGS_SUBCOMMANDS.includes(sub as Subcommand)) return undefined;
  if (name === undefined || name.startsWith('-')) {
    io.err(`hub-mcp servers ${sub}: give the server's name.\n${usageOf('servers')}\n`);
    return EXIT_USAGE;
  }
  const { request: asked, json } = request(sub as Subcommand, name, rest);
  // As `hub servers` does (servers.ts), with no client: children this starts are closed before it returns.
  const context = openContext({ log: CLI_LOG });
  const manager = createServerManager({ ...context, client: noClient });
  let result: ConfigureResult;
  try {
    // The person approves what they see: the changes are printed before they are approved.
    if (sub === 'approve' && !json) {
      const record = (await context.store.read()).servers[name];
      const changes = record ? toolChanges(context.config.paths, record, context.config.integrity, 'person') : [];
      const lines = reportLines(name, { changed: changes }).filter(line => !line.startsWith('Approve after review'));
      if (lines.length > 0) io.out(`${lines.join('\n')}\n`);
    }
    result = await configureServer(asked, { ...context, manager, audience: 'person' });
  } finally {
    await manager.close();
  }
  io.out(json ? `${JSON.stringify(result, null, 2)}\n` : `${render(result)}\n`);
  return 0;
}
