// The last steps of registry.install, shared by fresh installs, registrations and reconfigures.
import { HubError, errorMessage, isHubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import { removeToolCache, withTools } from '../../store/tool-cache.js';
import { toolMarkers } from '../../proxy/listing/injection-markers.js';
import { driftOf } from '../../proxy/listing/tool-integrity.js';
import type { InstallContext } from './context.js';
import type { InstallResult } from './result.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { SignInRequired } from '../../proxy/oauth/required.js';
import { restoreKept } from '../decisions/kept-decisions.js';
import { FIRST_START_MS } from './first-start.js';

export type NewRecord = Omit<ServerRecord, 'installedAt' | 'order' | 'autoStart' | 'tools'>;

/** The decisions a saved record got back, for finish() to say (only for records of this process). */
const restored = new WeakMap<ServerRecord, string[]>();

/**
 * Writes a new server record under the lock, last in install order; a name taken meanwhile is
 * refused. The person's decisions kept for the name come back with it (kept-decisions.ts) unless
 * dropKept: the person agreed to drop them (confirmDroppingKept).
 */
export async function saveRecord(context: InstallContext, fields: NewRecord, dropKept = false): Promise<ServerRecord> {
  return context.store.update(data => {
    if (data.servers[fields.name]) {
      throw new HubError(
        'ALREADY_EXISTS',
        `A server named "${fields.name}" was installed by another hub meanwhile; call registry.list, or pick another name with "name".`,
      );
    }
    const order = Math.max(0, ...Object.values(data.servers).map(server => server.order)) + 1;
    const record: ServerRecord = {
      ...fields,
      installedAt: new Date().toISOString(),
      order,
      autoStart: false,
    };
    // A cache left by an earlier install of this name is not this server's (it has no stamp yet).
    removeToolCache(context.config.paths, fields.name);
    const kept = restoreKept(data, record, dropKept);
    if (kept.length > 0) restored.set(record, kept);
    data.servers[fields.name] = record;
    return record;
  });
}

/** Drops a record this install just wrote, with its cached tools, so a failed install leaves nothing listed. */
async function discardRecord(context: InstallContext, name: string): Promise<void> {
  await context.manager.stop(name).catch(() => undefined);
  await context.store.update(data => {
    delete data.servers[name];
    removeToolCache(context.config.paths, name);
  });
  await context.manager.reload();
}

/**
 * After the record is saved: refresh routes, start the server when it can run, and describe the outcome.
 * fresh: the record is new, so a server that does not start is not installed (no half install).
 */
export async function finish(
  record: ServerRecord,
  requiredEnv: readonly string[],
  start: boolean,
  context: InstallContext,
  fresh = false,
): Promise<InstallResult> {
  const missingEnv = requiredEnv.filter(key => !record.env[key]);
  await context.manager.reload();
  const logFile = context.config.paths.serverLog(record.name);
  const kept = restored.get(record);
  // Disabled by the person before an uninstall: installed again, not started.
  const starting = start && record.settings?.enabled !== false;
  if (starting && missingEnv.length === 0) {
    context.progress?.(`starting ${record.name}`);
    try {
      // A new local server gets a short first start: a package that is not one fails fast.
      await context.manager.start(record.name, fresh && !record.remote ? { timeoutMs: FIRST_START_MS } : {});
    } catch (error) {
      // A remote server that needs a sign-in is installed: it starts once the person signs in.
      if (error instanceof SignInRequired) return signInResult(record, error, context);
      // The manager's message ends with the stderr tail: it goes last, after what to do.
      const reason = errorMessage(error);
      const log = reason.includes(logFile) ? '' : ` Its log is ${logFile}.`;
      const what = record.remote
        ? `URL ${record.remote.url} is an MCP server (Streamable HTTP or HTTP+SSE) and its headers are right`
        : `${record.package ? `package "${record.package}"` : 'command'} is an MCP server speaking stdio and its args and env are right`;
      if (fresh) {
        await discardRecord(context, record.name);
        throw new HubError(
          isHubError(error) ? error.code : 'CHILD_FAILED',
          `Server "${record.name}" did not start as an MCP server, so it was not installed (no record, no tools); check that the ${what}, then call registry.install again.${log} ${reason}`,
          { cause: error },
        );
      }
      throw new HubError(
        isHubError(error) ? error.code : 'CHILD_FAILED',
        `Server "${record.name}" was installed (record kept) but did not start; once fixed, call registry.install again with the same ${record.package ? 'package' : 'command'} (for example with "env"), or remove it with registry.uninstall { name: "${record.name}" }.${log} ${reason}`,
        { cause: error },
      );
    }
  }
  const [status] = await context.manager.status(record.name);
  const tools = status?.tools ?? [];
  if (starting && missingEnv.length === 0) context.progress?.(`ready: ${tools.length} tools`);
  // Flagged at install, for the person to see (docs/security.md "Tool integrity").
  const saved = (await context.store.read()).servers[record.name];
  const listed = saved ? withTools(context.config.paths, saved).tools : [];
  const markers = toolMarkers(listed);
  // An upgrade (or a reinstall) whose tools changed: withheld until approved (docs/security.md "Tool integrity").
  const withheld = context.config.integrity === 'off' ? [] : [...driftOf(listed, saved?.fingerprints).keys()];
  return {
    name: record.name,
    ...(record.package !== undefined && { package: record.package }),
    ...(record.version !== undefined && { version: record.version }),
    mode: record.mode,
    command: formatCommandLine(record.command, record.args),
    state: status?.state ?? 'stopped',
    tools,
    missingEnv,
    logFile,
    next: kept
      ? `The user's earlier decisions about "${record.name}" apply again: ${kept.join('; ')}. Only the user changes them (\`hub-mcp servers ${record.name}\` shows them). ${nextStep(record.name, tools, missingEnv, starting, record.package)}`
      : nextStep(record.name, tools, missingEnv, starting, record.package),
    ...(kept && { kept }),
    ...(withheld.length > 0 && { withheld }),
    ...(markers.length > 0 && { toolMarkers: markers }),
  };
}

/** Installed, waiting for the person to sign in: the authorization URL and what happens next. */
function signInResult(record: ServerRecord, error: SignInRequired, context: InstallContext): InstallResult {
  context.signIn?.(error.server, error.authorizationUrl);
  return {
    name: record.name,
    mode: record.mode,
    command: formatCommandLine(record.command, record.args),
    state: 'stopped',
    tools: [],
    missingEnv: [],
    logFile: context.config.paths.serverLog(record.name),
    authorizationUrl: error.authorizationUrl,
    next: error.message,
  };
}

function nextStep(
  name: string,
  tools: readonly string[],
  missingEnv: readonly string[],
  started: boolean,
  pkg: string | undefined,
): string {
  if (missingEnv.length > 0) {
    const example = missingEnv.map(key => `"${key}": "…"`).join(', ');
    return `Not started: it needs ${missingEnv.join(', ')}. Call registry.install again with ${pkg ? `package "${pkg}"` : 'the same command'}, name "${name}" and env { ${example} }, or remove it with registry.uninstall { name: "${name}" }.`;
  }
  if (!started)
    return `Saved but not started. registry.list { server: "${name}" } starts it and shows its tools; calls to ${name}.<tool> start it too.`;
  const example = tools[0] ?? `${name}.<tool>`;
  return `Call its tools directly (e.g. ${example}). If your client does not refresh its tool list, use registry.list { server: "${name}" } for their input schemas and registry.call { server: "${name}", tool, arguments }.`;
}
