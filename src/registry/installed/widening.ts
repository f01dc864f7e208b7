// Which settings changes widen what the agent can reach, and the command a person types instead.
import type { ServerSettings } from '../../store/schema.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import type { SandboxRequest } from './sandbox-settings.js';

// `hub servers configure` flags of a sandbox request (cli/servers/servers-settings.ts reads them back).
const sandboxFlags = (sandbox: SandboxRequest | undefined): string[] => [
  ...(sandbox?.enabled === undefined ? [] : [sandbox.enabled ? '--sandbox' : '--no-sandbox']),
  ...(sandbox?.read === undefined
    ? []
    : sandbox.read.length === 0
      ? ['--no-sandbox-read']
      : sandbox.read.flatMap(p => ['--sandbox-read', p])),
  ...(sandbox?.write === undefined
    ? []
    : sandbox.write.length === 0
      ? ['--no-sandbox-write']
      : sandbox.write.flatMap(p => ['--sandbox-write', p])),
  ...(sandbox?.network === undefined
    ? []
    : ['--network', typeof sandbox.network === 'string' ? sandbox.network : sandbox.network.join(',')]),
];

// Which per-server settings changes widen what the agent can reach. The agent may narrow alone
// (disable, deny, a first allow-list); widening (enable, un-deny, allow more) asks the person,
// since it can undo what they decided (docs/servers.md "Per-server settings").

interface SettingsRequest {
  readonly server: string;
  readonly sandbox?: SandboxRequest | undefined;
  readonly enabled?: boolean | undefined;
  readonly tools?:
    { readonly allow?: readonly string[] | undefined; readonly deny?: readonly string[] | undefined } | undefined;
}

/** One line per widening, for the person to read; empty when the request only narrows or keeps. */
export function widening(current: ServerSettings | undefined, request: SettingsRequest): string[] {
  const lines: string[] = [];
  if (request.enabled === true && current?.enabled === false) lines.push('enable it (it is disabled now)');
  const deny = request.tools?.deny;
  const undenied = deny === undefined ? [] : (current?.deny ?? []).filter(pattern => !deny.includes(pattern));
  if (undenied.length > 0) lines.push(`stop denying: ${undenied.join(', ')}`);
  const allow = request.tools?.allow;
  if (allow !== undefined && current?.allow !== undefined) {
    const added = allow.filter(pattern => !current.allow!.includes(pattern));
    if (allow.length === 0) lines.push(`drop the allow-list (${current.allow.join(', ')}): list every tool`);
    else if (added.length > 0) lines.push(`also allow: ${added.join(', ')}`);
  }
  return lines;
}

/** The terminal command that makes the same settings change (typing it is the person's approval). */
export function settingsCommand(request: SettingsRequest): string {
  const { allow, deny } = request.tools ?? {};
  const flags = [
    ...(request.enabled === undefined ? [] : [request.enabled ? '--enable' : '--disable']),
    ...(allow === undefined ? [] : allow.length === 0 ? ['--no-allow'] : allow.flatMap(p => ['--allow', p])),
    ...(deny === undefined ? [] : deny.length === 0 ? ['--no-deny'] : deny.flatMap(p => ['--deny', p])),
    ...sandboxFlags(request.sandbox),
  ];
  return formatCommandLine('hub-mcp', ['servers', 'configure', request.server, ...flags]);
}
