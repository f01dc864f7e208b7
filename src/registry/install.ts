import { basename } from 'node:path';
import { rm } from 'node:fs/promises';
import { HubError, errorMessage, isHubError } from '../errors.js';
import type { HubConfig } from '../config.js';
import type { Logger } from '../logger.js';
import type { ServerManager } from '../proxy/server-manager.js';
import type { ServerRecord } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { readInstalledPackage } from './bin.js';
import type { Confirm, InstallPlan } from './consent.js';
import { checkEnvKeys, checkServerName, formatCommandLine, resolveCommand } from './install-target.js';
import { npmInstall, npmInstallArgs } from './npm-install.js';
import { parseNpmSpec, type NpmSpec } from './npm-spec.js';
import type { InstallResult } from './install-result.js';

/** What the bundled catalog (or registry metadata) knows about a package. */
export interface CatalogHints {
  readonly defaultArgs?: readonly string[] | undefined;
  readonly requiredEnv?: readonly string[] | undefined;
}

export interface InstallRequest {
  readonly package?: string | undefined;
  readonly command?: string | undefined;
  readonly name?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly start?: boolean | undefined;
}

export interface InstallContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  readonly manager: ServerManager;
  readonly confirm: Confirm;
  readonly deriveName: (packageName: string) => string;
  readonly lookup?: ((packageName: string) => CatalogHints | undefined) | undefined;
  /** Short human progress messages ("installed x@y", "starting", "ready: N tools"); heartbeat while npm is quiet. */
  readonly progress?: ((message: string, heartbeat?: boolean) => void) | undefined;
  /** Each line npm prints while it installs. */
  readonly onNpmLine?: ((line: string) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** PATH used to check that a registered command exists. */
  readonly pathEnv?: string | undefined;
}

// Launchers say nothing about the server they run, so they cannot name it.
const LAUNCHERS = new Set([
  'node',
  'npx',
  'uvx',
  'uv',
  'python',
  'python3',
  'deno',
  'bun',
  'bunx',
  'sh',
  'bash',
  'docker',
  'pipx',
]);

interface Target {
  readonly name: string;
  readonly spec?: NpmSpec;
  readonly command?: string;
  readonly args: readonly string[];
  readonly requiredEnv: readonly string[];
}

function pickTarget(request: InstallRequest, context: InstallContext): Target {
  if (request.package !== undefined) {
    const spec = parseNpmSpec(request.package);
    const name = checkServerName(
      request.name ?? context.deriveName(spec.name),
      request.name === undefined ? spec.name : undefined,
    );
    const hints = context.lookup?.(spec.name);
    return { name, spec, args: request.args ?? hints?.defaultArgs ?? [], requiredEnv: hints?.requiredEnv ?? [] };
  }
  const command = request.command ?? '';
  let name = request.name;
  if (name === undefined) {
    const base = basename(command)
      .replace(/\.(m?js|cjs|py|sh|exe)$/, '')
      .toLowerCase();
    if (LAUNCHERS.has(base))
      throw new HubError(
        'INVALID_INPUT',
        `Field "name" is required when "command" is a launcher such as "${base}": pick a short server name (for example "everything").`,
      );
    name = base
      .replace(/^mcp-server-|^server-|-mcp$|-mcp-server$/g, '')
      .replace(/[^a-z0-9-]/g, '-')
      .replace(/^[^a-z]+/, '')
      .slice(0, 20)
      .replace(/-+$/, '');
  }
  return {
    name: checkServerName(name, request.name === undefined ? command : undefined),
    command,
    args: request.args ?? [],
    requiredEnv: [],
  };
}

// The same package (any version unless one is asked) or the same command: install again = reconfigure.
function sameSource(record: ServerRecord, target: Target): boolean {
  if (target.spec)
    return (
      record.mode === 'npm' &&
      record.package === target.spec.name &&
      (target.spec.range === undefined || target.spec.range === record.version)
    );
  return record.mode === 'command' && record.command === target.command;
}

/** registry.install: validate → ask → npm install (or register) → record → start → tools. */
export async function installServer(request: InstallRequest, context: InstallContext): Promise<InstallResult> {
  if ((request.package === undefined) === (request.command === undefined)) {
    throw new HubError(
      'INVALID_INPUT',
      'Give exactly one of "package" (an npm package to install, e.g. "@modelcontextprotocol/server-memory") or "command" (a server already on this machine, with "args").',
    );
  }
  const env = { ...request.env };
  checkEnvKeys(env);
  const target = pickTarget(request, context);
  const existing = (await context.store.read()).servers[target.name];
  if (existing && !sameSource(existing, target)) {
    const what = existing.package
      ? `package ${existing.package}@${existing.version ?? '?'}`
      : `command ${existing.command}`;
    throw new HubError(
      'ALREADY_EXISTS',
      `A server named "${target.name}" is already installed (${what}); pick another name with "name", or remove it first with registry.uninstall { name: "${target.name}" }.`,
    );
  }
  if (existing) return reconfigure(existing, target, request, env, context);
  if (target.spec) return installFromNpm(target, target.spec, env, request.start !== false, context);
  const command = target.command ?? '';
  await resolveCommand(command, context.pathEnv);
  await context.confirm({
    name: target.name,
    package: undefined,
    installLine: undefined,
    launchLine: formatCommandLine(command, target.args),
  });
  const record = await saveRecord(context, {
    name: target.name,
    command,
    args: [...target.args],
    env,
    mode: 'command',
  });
  return finish(record, target.requiredEnv, request.start !== false, context);
}

async function installFromNpm(
  target: Target,
  spec: NpmSpec,
  env: Record<string, string>,
  start: boolean,
  context: InstallContext,
): Promise<InstallResult> {
  const { config, log } = context;
  const prefix = config.paths.serverDir(target.name);
  const plan: InstallPlan = {
    name: target.name,
    package: spec.spec,
    installLine: formatCommandLine('npm', npmInstallArgs(prefix, spec.spec, config.install.allowScripts)),
    launchLine: formatCommandLine(process.execPath, [`${prefix}/node_modules/${spec.name}/<its bin>`, ...target.args]),
  };
  await context.confirm(plan);
  // No record means a folder left here is debris of an interrupted install.
  await rm(prefix, { recursive: true, force: true });
  context.progress?.(`npm: resolving ${spec.spec}…`);
  const started = Date.now();
  const heartbeat = setInterval(
    () => context.progress?.(`npm: installing ${spec.spec}… ${Math.round((Date.now() - started) / 1000)} s`, true),
    1_000,
  );
  try {
    await npmInstall({
      prefix,
      spec: spec.spec,
      allowScripts: config.install.allowScripts,
      log,
      onLine: line => context.onNpmLine?.(line),
      ...(context.signal && { signal: context.signal }),
    });
  } finally {
    clearInterval(heartbeat);
  }
  let installed;
  try {
    installed = await readInstalledPackage(prefix, spec.name);
  } catch (error) {
    await rm(prefix, { recursive: true, force: true });
    throw error;
  }
  context.progress?.(`installed ${spec.name}@${installed.version}`);
  const record = await saveRecord(context, {
    name: target.name,
    package: spec.name,
    version: installed.version,
    command: process.execPath,
    args: [installed.binPath, ...target.args],
    env,
    cwd: prefix,
    mode: 'npm',
  });
  return finish(record, target.requiredEnv, start, context);
}

type NewRecord = Omit<ServerRecord, 'installedAt' | 'order' | 'autoStart' | 'tools'>;

async function saveRecord(context: InstallContext, fields: NewRecord): Promise<ServerRecord> {
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
      tools: [],
    };
    data.servers[fields.name] = record;
    return record;
  });
}

async function reconfigure(
  existing: ServerRecord,
  target: Target,
  request: InstallRequest,
  env: Record<string, string>,
  context: InstallContext,
): Promise<InstallResult> {
  const args =
    request.args === undefined
      ? undefined
      : existing.mode === 'npm'
        ? [existing.args[0] ?? '', ...request.args]
        : [...request.args];
  if (args && args.join('\0') !== existing.args.join('\0')) {
    await context.confirm({
      name: existing.name,
      package: existing.package,
      installLine: undefined,
      launchLine: formatCommandLine(existing.command, args),
    });
  }
  const record = await context.store.update(data => {
    const current = data.servers[existing.name];
    if (!current)
      throw new HubError(
        'NOT_FOUND',
        `Server "${existing.name}" was uninstalled meanwhile; call registry.install again.`,
      );
    current.env = { ...current.env, ...env };
    if (args) current.args = args;
    return current;
  });
  await context.manager.stop(record.name);
  return finish(record, target.requiredEnv, request.start !== false, context);
}

async function finish(
  record: ServerRecord,
  requiredEnv: readonly string[],
  start: boolean,
  context: InstallContext,
): Promise<InstallResult> {
  const missingEnv = requiredEnv.filter(key => !record.env[key]);
  await context.manager.reload();
  const logFile = context.config.paths.serverLog(record.name);
  if (start && missingEnv.length === 0) {
    context.progress?.(`starting ${record.name}`);
    try {
      await context.manager.start(record.name);
    } catch (error) {
      // The manager's message ends with the stderr tail: it goes last, after what to do.
      const reason = errorMessage(error);
      throw new HubError(
        isHubError(error) ? error.code : 'CHILD_FAILED',
        `Server "${record.name}" was installed (record kept) but did not start; once fixed, call registry.install again with the same ${record.package ? 'package' : 'command'} (for example with "env"), or remove it with registry.uninstall { name: "${record.name}" }.${reason.includes(logFile) ? '' : ` Its log is ${logFile}.`} ${reason}`,
        { cause: error },
      );
    }
  }
  const [status] = await context.manager.status(record.name);
  const tools = status?.tools ?? [];
  if (start && missingEnv.length === 0) context.progress?.(`ready: ${tools.length} tools`);
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
    next: nextStep(record.name, tools, missingEnv, start, record.package),
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
