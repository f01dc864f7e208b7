// A server's sandbox settings: checked against this machine's files, widenings asked of the person.
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import type { HubConfig } from '../../core/config/config.js';
import { z } from 'zod';
import { HubError } from '../../core/errors.js';
import { grantProblem } from '../../proxy/sandbox/plan.js';
import type { ServerRecord, ServerSettings } from '../../store/schema.js';

// A server's sandbox settings (registry.configure { sandbox }, `hub servers configure --sandbox-*`):
// checked against this machine's files when set (a bad path is an error naming it and nothing
// changes), and what widens access asks the person as an allow-list change does.

type SandboxSettings = NonNullable<ServerSettings['sandbox']>;

export interface SandboxRequest {
  /** false: run it unsandboxed (asks the person); true: sandboxed again. */
  readonly enabled?: boolean | undefined;
  /** Absolute paths it may read; [] clears. */
  readonly read?: readonly string[] | undefined;
  /** Absolute paths it may write, or "roots" (the session's roots); [] clears. */
  readonly write?: readonly string[] | undefined;
  /** A list: only those hosts (`name`, `*.name`, either with `:port`). */
  readonly network?: 'all' | 'none' | 'host' | readonly string[] | undefined;
}

const MAX_GRANTS = 50;
const HOST = /^(\*\.)?[a-zA-Z0-9][a-zA-Z0-9.-]{0,252}(:\d{1,5})?$|^\[[0-9a-fA-F:]{2,45}\](:\d{1,5})?$/;

export const SandboxRequestSchema = z.strictObject({
  enabled: z.boolean().optional(),
  read: z.array(z.string()).optional(),
  write: z.array(z.string()).optional(),
  network: z
    .union([
      z.enum(['all', 'none', 'host']),
      z
        .array(
          z
            .string()
            .max(253)
            .regex(
              HOST,
              'give a host name (api.github.com), *.name for its subdomains, or an IP, with an optional :port',
            ),
        )
        .min(1)
        .max(MAX_GRANTS),
    ])
    .optional(),
});

/** registry.configure's `sandbox`, checked (its listed schema is left open to fit the listing budget). */
export function sandboxRequest(value: unknown): SandboxRequest | undefined {
  if (value === undefined) return undefined;
  const parsed = SandboxRequestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new HubError(
    'INVALID_INPUT',
    `Field "sandbox${issue?.path.length ? `.${issue.path.join('.')}` : ''}": ${issue?.message ?? 'invalid'}; give { read?: [absolute paths], write?: [absolute paths or "roots"], network?: "all" (the network but not this machine's services) | "none" | "host" (localhost included) | [host names], enabled?: boolean }.`,
  );
}

function checked(field: string, paths: readonly string[] | undefined, config: HubConfig): string[] | undefined {
  if (paths === undefined) return undefined;
  if (paths.length > MAX_GRANTS)
    throw new HubError('INVALID_INPUT', `Field "${field}" has ${paths.length} paths; at most ${MAX_GRANTS}.`);
  const home = process.env.HOME ?? homedir();
  const own = [config.paths.serverDir('\0')];
  return paths.map(path => {
    if (field === 'sandbox.write' && path === 'roots') return path;
    const problem = grantProblem(path, config.paths, home, own);
    if (problem !== undefined)
      throw new HubError(
        'INVALID_INPUT',
        `Field "${field}": ${problem}; give an absolute path to an existing folder or file (not /, a secret folder such as ~/.ssh, or HUB_HOME). Nothing changed.`,
      );
    // Kept resolved: a symlink changed later cannot move the grant.
    return realpathSync(path);
  });
}

/** The sandbox settings after the request (undefined: none), paths checked; throws before anything is asked. */
export function nextSandbox(
  current: SandboxSettings | undefined,
  request: SandboxRequest | undefined,
  config: HubConfig,
): SandboxSettings | undefined {
  if (request === undefined) return current;
  const next: SandboxSettings = { ...current };
  if (request.enabled === false) next.enabled = false;
  else if (request.enabled === true) delete next.enabled;
  for (const key of ['read', 'write'] as const) {
    const paths = checked(`sandbox.${key}`, request[key], config);
    if (paths === undefined) continue;
    if (paths.length === 0) delete next[key];
    else next[key] = [...new Set(paths)];
  }
  if (request.network === 'all') delete next.network;
  else if (typeof request.network === 'string') next.network = request.network;
  else if (request.network !== undefined) next.network = [...new Set(request.network.map(host => host.toLowerCase()))];
  return Object.keys(next).length > 0 ? next : undefined;
}

/** One line per widening of the sandbox, for the person to read. */
export function sandboxWidening(current: SandboxSettings | undefined, next: SandboxSettings | undefined): string[] {
  const lines: string[] = [];
  if (next?.enabled === false && current?.enabled !== false)
    lines.push('run it without its sandbox (it reaches every file you can)');
  const added = (key: 'read' | 'write') => (next?.[key] ?? []).filter(path => !(current?.[key] ?? []).includes(path));
  const reads = added('read');
  const writes = added('write');
  if (reads.length > 0) lines.push(`let it read ${reads.join(', ')}`);
  if (writes.length > 0)
    lines.push(`let it write ${writes.map(path => (path === 'roots' ? "the session's roots" : path)).join(', ')}`);
  const before = current?.network ?? 'all';
  const after = next?.network ?? 'all';
  // A list reaches less than all, more than none; one list widens another by a host it adds.
  const reach = (network: typeof after) => (typeof network === 'string' ? { none: 0, all: 2, host: 3 }[network] : 1);
  if (reach(after) > reach(before))
    lines.push(
      reach(after) === 3
        ? "give it this machine's network, localhost services included (databases, dev servers)"
        : reach(after) === 2
          ? 'give it the network'
          : `let it reach ${(after as string[]).join(', ')}`,
    );
  else if (Array.isArray(after) && Array.isArray(before)) {
    const added = after.filter(host => !before.includes(host));
    if (added.length > 0) lines.push(`let it reach ${added.join(', ')}`);
  }
  return lines;
}

/** The policy in force for a server (registry.list { server }, `hub servers <name>`). */
export function sandboxView(record: ServerRecord, config: HubConfig): Record<string, unknown> {
  const settings = record.settings?.sandbox;
  if (record.remote !== undefined) return { mode: 'none (a remote server: no process here)' };
  if (record.kind === 'oci') return { mode: 'its container' };
  if (!config.sandbox.enabled) return { mode: 'off (config.json sandbox.enabled: false)' };
  if (settings?.enabled === false) return { mode: "off (this server's settings)" };
  return {
    mode: 'bubblewrap',
    network: Array.isArray(settings?.network) ? `only ${settings.network.join(', ')}` : (settings?.network ?? 'all'),
    read: ['the system', 'its install folder', "the session's roots", ...(settings?.read ?? [])],
    write: [
      'its data folder',
      'the folders its args and env name',
      'a private /tmp',
      ...(settings?.write ?? []).map(path => (path === 'roots' ? "the session's roots" : path)),
    ],
  };
}

/** The policy in one line (registry.list { server }, `hub servers <name>`). */
export function sandboxLine(view: Record<string, unknown>): string {
  if (view.mode !== 'bubblewrap') return `sandbox: ${String(view.mode)}`;
  const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : '');
  return `sandbox: bubblewrap, network ${String(view.network)}; reads ${list(view.read)}; writes ${list(view.write)}`;
}

// The sandbox as asked (checked before anyone was asked), or the settings as they are.
export const withSandbox = (
  settings: ServerSettings | undefined,
  asked: boolean,
  sandbox: ServerSettings['sandbox'],
) => {
  if (!asked) return settings;
  const { sandbox: _old, ...rest } = settings ?? {};
  const next = sandbox === undefined ? rest : { ...rest, sandbox };
  return Object.keys(next).length > 0 ? next : undefined;
};
