// Per-server settings (registry.configure and `hub servers configure`), written under the store lock.
import type { HubConfig } from '../../core/config/config.js';
import { HubError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ServerManager } from '../../proxy/server-manager.js';
import { launchKey } from '../../proxy/slots/records.js';
import { isDisabled } from '../../proxy/listing/tool-filter.js';
import { fingerprint } from '../../proxy/listing/tool-integrity.js';
import type { CachedTool, ServerRecord, ServerSettings } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { readToolCacheFile, withTools, writeToolCache } from '../../store/tool-cache.js';
import { expandDataArgs } from '../install/data-dir.js';
import { approveSurface } from '../decisions/surface-approval.js';
import { checkEnvKeys } from '../install/target.js';
import { widening } from './widening.js';
import { auditedConfigure } from './audit-configure.js';
import { nextSandbox, sandboxView, sandboxWidening, type SandboxRequest } from './sandbox-settings.js';
import { withSandbox } from './sandbox-settings.js';
import {
  INSTRUCTIONS,
  integrityReport,
  pendingTools,
  type Audience,
  type IntegrityReport,
  type PendingTool,
  type ToolChange,
} from '../decisions/tool-review.js';

// Per-server settings (registry.configure, `hub servers configure|enable|disable|approve`): written
// to the server's record in db.json under the store's lock, so every hub sharing HUB_HOME applies
// them when it sees db.json change (store-sync.ts), and sends list_changed.

export interface ConfigureRequest {
  readonly server: string;
  readonly enabled?: boolean | undefined;
  /** One child per client session (true) or one shared by all (false, the default). */
  readonly perSession?: boolean | undefined;
  readonly tools?:
    { readonly allow?: readonly string[] | undefined; readonly deny?: readonly string[] | undefined } | undefined;
  /** Set these variables; an empty value removes one. Values are secrets: never shown back. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Replace the server's arguments (for an npm install: the arguments after its bin). */
  readonly args?: readonly string[] | undefined;
  /** Tool names (or "*") whose changed definitions become the approved ones. */
  readonly approve?: readonly string[] | undefined;
  /** The child's sandbox (sandbox-settings.ts). */
  readonly sandbox?: SandboxRequest | undefined;
}

export interface ConfigureDeps {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  readonly manager: ServerManager;
  /** Asked before new args are used (registry.install's consent); the CLI passes none. */
  readonly confirmArgs?: (record: ServerRecord, args: string[]) => Promise<unknown>;
  /** Asked before changed tools are approved: the person, never the agent alone. The CLI passes none. */
  readonly confirmApproval?: (server: string, changes: ToolChange[]) => Promise<void>;
  /** Asked before a change that widens what the agent reaches (installed/widening.ts); the CLI passes none. */
  readonly confirmSettings?: (record: ServerRecord, widens: string[]) => Promise<void>;
  /** Who reads the result: the CLI passes "person" (withheld text shown), the agent's tool nothing. */
  readonly audience?: Audience;
}

export interface ConfigureResult {
  name: string;
  enabled: boolean;
  /** Each client session gets its own child. */
  perSession?: boolean;
  tools: { allow?: string[]; deny?: string[] };
  /** Names only: values are never shown. */
  envKeys: string[];
  args: string[];
  state: string;
  /** Tools listed and callable now. */
  listed: number;
  approved?: string[];
  /** Approved as shown, but the server changed them again while the person was asked: still withheld. */
  changedAgain?: string[];
  restarted?: boolean;
  integrity: IntegrityReport;
  /** The sandbox policy in force. */
  sandbox: Record<string, unknown>;
  next: string;
}

const MAX_PATTERNS = 200;
const MAX_PATTERN_CHARS = 256;

function checkPatterns(field: string, patterns: readonly string[] | undefined): string[] | undefined {
  if (patterns === undefined) return undefined;
  if (patterns.length > MAX_PATTERNS)
    throw new HubError('INVALID_INPUT', `Field "${field}" has ${patterns.length} entries; at most ${MAX_PATTERNS}.`);
  for (const pattern of patterns)
    if (pattern === '' || pattern.length > MAX_PATTERN_CHARS)
      throw new HubError(
        'INVALID_INPUT',
        `Field "${field}" has an empty or over-long entry: give tool names as the server names them (registry.list { server }), or globs with * and ? (e.g. "get_*"), up to ${MAX_PATTERN_CHARS} characters.`,
      );
  return [...patterns];
}

const notInstalled = (name: string) =>
  new HubError('NOT_FOUND', `No server named "${name}" is installed; registry.list shows the installed servers.`);

/** Which changed tools an approval covers; a name that is not waiting for approval is refused by name. */
function approvedNames(changes: readonly ToolChange[], asked: readonly string[], server: string): string[] {
  const pending = changes.map(change => change.tool);
  if (asked.includes('*')) return pending;
  const unknown = asked.filter(name => !pending.includes(name));
  if (unknown.length > 0)
    throw new HubError(
      'INVALID_INPUT',
      `Field "approve": ${unknown.map(name => `"${name}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not waiting for approval on server "${server}"${pending.length > 0 ? ` (waiting: ${pending.join(', ')})` : ' (nothing is)'}.`,
    );
  return [...asked];
}

function nextSettings(current: ServerSettings | undefined, request: ConfigureRequest): ServerSettings | undefined {
  const settings: ServerSettings = { ...current };
  if (request.enabled !== undefined) {
    if (request.enabled) delete settings.enabled;
    else settings.enabled = false;
  }
  if (request.perSession !== undefined) {
    if (request.perSession) settings.perSession = true;
    else delete settings.perSession;
  }
  for (const key of ['allow', 'deny'] as const) {
    const patterns = checkPatterns(`tools.${key}`, request.tools?.[key]);
    if (patterns === undefined) continue;
    if (patterns.length === 0) delete settings[key];
    else settings[key] = patterns;
  }
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/** Applies a configure request to the store and to this hub; other hubs follow db.json. On the audit log. */
export const configureServer = (request: ConfigureRequest, deps: ConfigureDeps): Promise<ConfigureResult> =>
  auditedConfigure(request, deps, configureOnce);

async function configureOnce(request: ConfigureRequest, deps: ConfigureDeps): Promise<ConfigureResult> {
  const { config, store, manager } = deps;
  if (request.env) checkEnvKeys(request.env);
  const existing = (await store.read()).servers[request.server];
  if (!existing) throw notInstalled(request.server);
  nextSettings(existing.settings, request); // validates the patterns before anyone is asked
  const sandbox = nextSandbox(existing.settings?.sandbox, request.sandbox, config);
  const widens = [...widening(existing.settings, request), ...sandboxWidening(existing.settings?.sandbox, sandbox)];
  if (widens.length > 0) await deps.confirmSettings?.(existing, widens);
  const args =
    request.args === undefined
      ? undefined
      : existing.mode === 'npm'
        ? [existing.args[0] ?? '', ...expandDataArgs(request.args, existing.dataDir)]
        : [...request.args];
  if (args && args.join('\0') !== existing.args.join('\0')) await deps.confirmArgs?.(existing, args);
  let approved: string[] | undefined;
  let reviewed: PendingTool[] = [];
  if (request.approve !== undefined) {
    // Read once: what the person is shown is what is approved, by fingerprint.
    const pending = pendingTools(config.paths, existing, 'withhold', 'person');
    const names = approvedNames(
      pending.map(entry => entry.change),
      request.approve,
      existing.name,
    );
    approved = names;
    reviewed = pending.filter(entry => names.includes(entry.change.tool));
    if (reviewed.length > 0)
      await deps.confirmApproval?.(
        existing.name,
        reviewed.map(entry => entry.change),
      );
  }
  const before = (await manager.status(existing.name))[0]?.state;
  const record = await store.update(data => {
    const current = data.servers[existing.name];
    if (!current) throw notInstalled(existing.name);
    const settings = withSandbox(nextSettings(current.settings, request), request.sandbox !== undefined, sandbox);
    if (settings) current.settings = settings;
    else delete current.settings;
    if (request.env)
      for (const [key, value] of Object.entries(request.env)) {
        if (value === '') delete current.env[key];
        else current.env[key] = value;
      }
    if (args) current.args = args;
    if (reviewed.length > 0) approveReviewed(config.paths, current, reviewed);
    return { ...current };
  });
  await manager.reload();
  // New env or args apply to a running child: it is started again (other hubs stop theirs).
  const relaunch = launchKey(record) !== launchKey(existing) && (before === 'ready' || before === 'starting');
  if (relaunch && !isDisabled(record)) await manager.start(record.name);
  // A tool that changed again while the person was asked: its newer definition is not approved.
  const now = withTools(config.paths, record).tools;
  const pendingKeys = new Set(
    (readToolCacheFile(config.paths, record.name)?.pendingSurface ?? []).map(entry => entry.key),
  );
  const changedAgain = reviewed
    .map(entry => entry.change)
    .filter(change => {
      if (change.tool === INSTRUCTIONS) return record.pendingInstructions !== undefined;
      if (pendingKeys.has(change.tool)) return true;
      const tool = now.find(entry => entry.name === change.tool);
      return tool !== undefined && fingerprint(tool) !== change.fingerprint;
    })
    .map(change => change.tool);
  return resultOf(record, deps, approved, relaunch, changedAgain);
}

/**
 * Under the store's lock: the definitions the person was shown become the approved ones (by their
 * fingerprints, whatever is cached by now), and are kept in the cache file so a later change is
 * shown against them. Approvals of tools no longer listed go.
 */
function approveReviewed(paths: HubConfig['paths'], record: ServerRecord, all: readonly PendingTool[]): void {
  // The server's instructions: the text shown becomes the approved one; a newer one stays pending.
  const instructions = all.find(entry => entry.change.tool === INSTRUCTIONS);
  if (instructions?.tool.description !== undefined) {
    record.instructions = instructions.tool.description;
    if (record.pendingInstructions === record.instructions) delete record.pendingInstructions;
  }
  const reviewed = all.filter(entry => entry !== instructions && entry.surface === undefined);
  const surfaced = all.filter(entry => entry.surface !== undefined);
  const file = readToolCacheFile(paths, record.name);
  const tools = withTools(paths, record).tools;
  const listed = new Set(tools.map(tool => tool.name));
  const names = new Set(reviewed.map(entry => entry.change.tool));
  const kept = Object.entries(record.fingerprints ?? {}).filter(([name]) => listed.has(name) && !names.has(name));
  record.fingerprints = Object.fromEntries([
    ...kept,
    ...reviewed.map(entry => [entry.change.tool, entry.change.fingerprint] as const),
  ]);
  if (!file) return;
  const cached = new Map(tools.map(tool => [tool.name, fingerprint(tool)]));
  // Only a definition that is no longer the cached one needs keeping (it changed again meanwhile).
  const approvedTools: CachedTool[] = [
    ...(file.approvedTools ?? []).filter(tool => !names.has(tool.name)),
    ...reviewed.filter(entry => cached.get(entry.tool.name) !== entry.change.fingerprint).map(entry => entry.tool),
  ];
  const { surface, pendingSurface } =
    surfaced.length > 0
      ? approveSurface(record, file, surfaced)
      : { surface: file.surface, pendingSurface: file.pendingSurface };
  // A new surface is listed: a new stamp makes every hub read the cache again.
  const stamp = surfaced.length > 0 ? new Date().toISOString() : file.updatedAt;
  if (surfaced.length > 0) record.toolsUpdatedAt = stamp;
  writeToolCache(paths, record.name, file.tools, stamp, file.issues ?? [], surface, approvedTools, pendingSurface);
}

/** A server's settings and state as configure reports them, with nothing changed. */
export const describeServer = (record: ServerRecord, deps: ConfigureDeps): Promise<ConfigureResult> =>
  resultOf(record, deps, undefined, false, []);

async function resultOf(
  record: ServerRecord,
  deps: ConfigureDeps,
  approved: string[] | undefined,
  restarted: boolean,
  changedAgain: string[],
): Promise<ConfigureResult> {
  const { config, manager } = deps;
  const [status] = await manager.status(record.name);
  const integrity = integrityReport(config.paths, record, config.integrity, deps.audience ?? 'agent');
  const enabled = !isDisabled(record);
  const tools = {
    ...(record.settings?.allow && { allow: record.settings.allow }),
    ...(record.settings?.deny && { deny: record.settings.deny }),
  };
  const waiting = integrity.changed?.length ?? 0;
  const next =
    changedAgain.length > 0
      ? `${changedAgain.join(', ')} changed again while the user was asked: what they were shown is approved, the newer definition is not and stays withheld; approving again shows it to them.`
      : !enabled
        ? `${record.name} is disabled: not started, nothing listed. registry.configure { server: "${record.name}", enabled: true } enables it.`
        : waiting > 0
          ? `${waiting} tool(s) of ${record.name} wait for approval; registry.list { server: "${record.name}" } shows what changed.`
          : `registry.list { server: "${record.name}" } shows the tools it lists now.`;
  return {
    name: record.name,
    enabled,
    ...(record.settings?.perSession === true && { perSession: true }),
    tools,
    envKeys: Object.keys(record.env).sort(),
    args: record.mode === 'npm' ? record.args.slice(1) : record.args,
    state: status?.state ?? 'stopped',
    listed: status?.tools.length ?? 0,
    ...(approved !== undefined && { approved }),
    ...(changedAgain.length > 0 && { changedAgain }),
    ...(restarted && { restarted }),
    integrity,
    sandbox: sandboxView(record, config),
    next,
  };
}
