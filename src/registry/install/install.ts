// registry.install's pipeline: validate, ask, install or register, record, start, list tools.
import { basename } from 'node:path';
import { HubError } from '../../core/errors.js';
import type { ServerRecord } from '../../store/schema.js';
import type { InstallPlan } from '../decisions/consent.js';
import { expandDataArgs } from './data-dir.js';
import type { InstallContext, InstallRequest, Target } from './context.js';
import { finish, saveRecord } from './record.js';
import { confirmDroppingKept } from '../decisions/kept-decisions.js';
import type { InstallResult } from './result.js';
import { checkEnvKeys, checkServerName, resolveCommand } from './target.js';
import { formatCommandLine } from '../../core/shell-quote.js';
import { installFromNpmStep } from './npm-step.js';
import { installRemote } from './remote.js';
import { installFromOfficial } from './official.js';
import { rebuildExisting } from './scripts-existing.js';
import { npmInstallLine } from '../npm/install.js';
import { parseNpmSpec, type NpmSpec } from '../npm/spec.js';
import { ScriptsChoiceSchema } from '../decisions/scripts-choice.js';
import { existingInstall } from './upgrade.js';
import { versionMatches } from './version-match.js';
import { traced } from '../../core/telemetry/telemetry.js';

export type { CatalogHints, InstallContext, InstallRequest } from './context.js';
import { audited, withAskedOnRecord } from './audit.js';

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

function pickTarget(request: InstallRequest, context: InstallContext): Target {
  if (request.package !== undefined) {
    const spec = parseNpmSpec(request.package);
    const name = checkServerName(
      request.name ?? context.deriveName(spec.name),
      request.name === undefined ? spec.name : undefined,
    );
    const hints = context.lookup?.(spec.name);
    return {
      name,
      spec,
      args: request.args ?? hints?.defaultArgs ?? [],
      requiredEnv: hints?.requiredEnv ?? request.requiredEnv ?? [],
      dataEnv: hints?.dataEnv,
      scripts: hints?.scripts,
      ...(request.allowScripts !== undefined && { allowScripts: request.allowScripts }),
    };
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
    requiredEnv: request.requiredEnv ?? [],
  };
}

// The same package (any version unless one is asked) or the same command: install again = reconfigure.
function sameSource(record: ServerRecord, target: Target): boolean {
  if (target.spec)
    return (
      record.mode === 'npm' && record.package === target.spec.name && versionMatches(record.version, target.spec.range)
    );
  return record.mode === 'command' && record.command === target.command;
}

/** registry.install: validate → ask → npm install (or register) → record → start → tools; traced and on the audit log. */
export function installServer(request: InstallRequest, context: InstallContext): Promise<InstallResult> {
  const what = request.package ?? request.official ?? request.url ?? request.command ?? '';
  return traced('hub.install', installAttributes(request), () =>
    audited(
      context.config.paths,
      { kind: 'install', server: request.name ?? what, package: what },
      () => installOnce(request, withAskedOnRecord(context)),
      result => ({ server: result.name, package: result.package ?? what, version: result.version }),
    ),
  );
}

async function installOnce(request: InstallRequest, context: InstallContext): Promise<InstallResult> {
  const given = [request.package, request.command, request.url, request.official].filter(
    field => field !== undefined,
  ).length;
  if (given !== 1) {
    throw new HubError(
      'INVALID_INPUT',
      'Give exactly one of "package" (an npm package to install, e.g. "@modelcontextprotocol/server-memory"), "command" (a server already on this machine, with "args"), "url" (a remote MCP server, e.g. "https://mcp.example.com/mcp") or "official" (a server of the official MCP Registry by name, as registry.search gives it).',
    );
  }
  if (request.official !== undefined) return installFromOfficial(request, context, installOnce);
  if (request.kind !== undefined && request.requiredEnv === undefined)
    throw new HubError(
      'INVALID_INPUT',
      'Field "kind" goes with "official" (which of its packages or remotes to install).',
    );
  if (request.url !== undefined) return installRemote(request, context);
  if (request.headers !== undefined || request.transport !== undefined)
    throw new HubError(
      'INVALID_INPUT',
      'Fields "headers" and "transport" are for remote servers: give them with "url" (local servers take "env").',
    );
  const env = { ...request.env };
  checkEnvKeys(env);
  if (request.allowScripts !== undefined && !ScriptsChoiceSchema.safeParse(request.allowScripts).success)
    throw new HubError(
      'INVALID_INPUT',
      'Field "allowScripts" must be true, false or a list of npm package names whose install scripts may run (for example ["sqlite3"]).',
    );
  const target = pickTarget(request, context);
  const existing = (await context.store.read()).servers[target.name];
  // Same package, another version or other install scripts: an upgrade (asked for explicitly).
  const upgraded = existing && (await existingInstall(existing, target, request, env, context));
  if (upgraded) return upgraded;
  if (existing && !sameSource(existing, target)) {
    const what = existing.package
      ? `package ${existing.package}@${existing.version ?? '?'}`
      : `command ${existing.command}`;
    throw new HubError(
      'ALREADY_EXISTS',
      `A server named "${target.name}" is already installed (${what}); pick another name with "name", or remove it first with registry.uninstall { name: "${target.name}" }.`,
    );
  }
  if (existing) {
    // allowScripts for a server installed earlier: build what is now allowed in its folder.
    const again = (running: InstallContext) => reconfigure(existing, target, request, env, running);
    return existing.mode === 'npm' && request.allowScripts
      ? rebuildExisting(existing, request.allowScripts, context, again)
      : again(context);
  }
  // Another server under a name whose decisions are kept: the person agrees to drop them first.
  const source = target.spec ? `package ${target.spec.name}` : `command ${target.command ?? ''}`;
  const dropKept = await confirmDroppingKept(context, target.name, source);
  if (target.spec) return installFromNpm(target, target.spec, env, request, context, dropKept);
  const command = target.command ?? '';
  await resolveCommand(command, context.pathEnv);
  await context.confirm({
    name: target.name,
    package: undefined,
    installLine: undefined,
    launchLine: formatCommandLine(command, target.args),
  });
  const record = await saveRecord(
    context,
    {
      name: target.name,
      command,
      args: [...target.args],
      env,
      mode: 'command',
      ...(request.kind !== undefined && { kind: request.kind }),
      ...(target.requiredEnv.length > 0 && { requiredEnv: [...target.requiredEnv] }),
    },
    dropKept,
  );
  return finish(record, target.requiredEnv, request.start !== false, context, true);
}

async function installFromNpm(
  target: Target,
  spec: NpmSpec,
  env: Record<string, string>,
  request: InstallRequest,
  context: InstallContext,
  dropKept: boolean,
): Promise<InstallResult> {
  const { config } = context;
  const prefix = config.paths.serverDir(target.name);
  const allowScripts = target.allowScripts ?? config.install.allowScripts;
  const plan: InstallPlan = {
    name: target.name,
    package: spec.spec,
    // npm runs inside the folder (no --prefix) so the user's npmrc files apply.
    installLine: npmInstallLine(prefix, spec.spec, allowScripts),
    launchLine: formatCommandLine(process.execPath, [`${prefix}/node_modules/${spec.name}/<its bin>`, ...target.args]),
    scripts: target.allowScripts || undefined,
  };
  await context.confirm(plan);
  return installFromNpmStep({ target, spec, env, start: request.start !== false, allowScripts, dropKept }, context);
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
        ? [existing.args[0] ?? '', ...expandDataArgs(request.args, existing.dataDir)]
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

// What an install's span says (docs/telemetry.md): its kind and public names, never a command
// line, URL, header or env value (any can hold a secret). A package spec that is not a plain
// registry name (a tarball URL can carry a token) is left out.
const PLAIN_SPEC = /^(@[\w.-]{1,100}\/)?[\w.-]{1,100}(@[\w.^~<>=| *-]{1,60})?$/;
const installAttributes = (request: InstallRequest): Record<string, string> => ({
  'hub.install.kind':
    request.official !== undefined
      ? 'official'
      : request.package !== undefined
        ? 'npm'
        : request.url !== undefined
          ? 'remote'
          : 'command',
  ...(request.name !== undefined && { 'hub.server': request.name.slice(0, 100) }),
  ...(request.package !== undefined && PLAIN_SPEC.test(request.package) && { 'hub.install.package': request.package }),
  ...(request.official !== undefined && { 'hub.install.official': request.official.slice(0, 200) }),
});
