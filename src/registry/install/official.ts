// registry.install { official, kind? }: a server of the official MCP Registry, installed as its
// server.json says: npm and remote through their own paths, pypi through uvx (or pipx run), oci
// through docker (or podman) run -i --rm, mcpb unpacked by install/mcpb.ts.
import { HubError } from '../../core/errors.js';
import type { InstallContext, InstallRequest } from './context.js';
import { installMcpb } from './mcpb.js';
import type { InstallResult } from './result.js';
import { kindOf, launchArguments, launchEnv, remoteLaunch } from '../sources/official-map.js';
import type { OfficialPackage, OfficialRemote } from '../sources/official-schema.js';
import { fetchOfficialServer, officialServerName } from '../sources/official.js';
import { checkRuntime, describeKind, type ServerKind } from '../sources/server-kinds.js';

type Install = (request: InstallRequest, context: InstallContext) => Promise<InstallResult>;
type Choice = { kind: ServerKind; pkg?: OfficialPackage; remote?: OfficialRemote };

// An image reference with a tag or digest is used as it is; otherwise the entry's version is its tag.
function imageRef(pkg: OfficialPackage): string {
  const last = pkg.identifier.split('/').pop() ?? '';
  return last.includes(':') || pkg.identifier.includes('@') || pkg.version === undefined
    ? pkg.identifier
    : `${pkg.identifier}:${pkg.version}`;
}

/** The command line of a pypi or oci package with the runtime found on this machine. */
function launchLine(kind: 'pypi' | 'oci', runtime: string, pkg: OfficialPackage, args: string[], env: string[]) {
  const runtimeArgs = launchArguments(pkg.runtimeArguments, 'runtime');
  if (kind === 'oci') {
    // Each variable is passed by name: its value comes from the server's env, never the command line.
    const passEnv = env.flatMap(name => ['-e', name]);
    return ['run', '-i', '--rm', ...runtimeArgs, ...passEnv, imageRef(pkg), ...args];
  }
  if (runtime === 'pipx') {
    const spec = pkg.version === undefined ? pkg.identifier : `${pkg.identifier}==${pkg.version}`;
    return ['run', ...runtimeArgs, '--spec', spec, pkg.identifier, ...args];
  }
  return [...runtimeArgs, pkg.version === undefined ? pkg.identifier : `${pkg.identifier}@${pkg.version}`, ...args];
}

export async function installFromOfficial(
  request: InstallRequest,
  context: InstallContext,
  install: Install,
): Promise<InstallResult> {
  const official = request.official ?? '';
  const server = await fetchOfficialServer({
    baseUrl: context.config.registryUrl,
    name: official,
    signal: context.signal ?? AbortSignal.timeout(context.config.searchTimeoutMs),
    log: context.log,
  });
  const choices: Choice[] = [
    ...(server.packages ?? []).flatMap(pkg => {
      const kind = kindOf(pkg);
      const local = pkg.transport === undefined || pkg.transport.type === 'stdio';
      return kind !== undefined && local ? [{ kind, pkg }] : [];
    }),
    ...(server.remotes ?? []).map(remote => ({ kind: 'remote' as const, remote })),
  ];
  const pick = request.kind
    ? choices.find(choice => choice.kind === request.kind)
    : (choices.find(choice => checkRuntime(choice.kind, context.pathEnv).runnable) ?? choices[0]);
  if (!pick) {
    // What it does offer that hub cannot run, said exactly: a person can then run it by hand.
    const skipped = (server.packages ?? []).flatMap(pkg => {
      const kind = kindOf(pkg);
      if (kind === undefined)
        return [`${pkg.registryType} package ${pkg.identifier} (hub does not run ${pkg.registryType} packages)`];
      if (pkg.transport !== undefined && pkg.transport.type !== 'stdio')
        return [
          `${kind} package ${pkg.identifier} served over ${pkg.transport.type} on this machine (hub runs local packages over stdio only)`,
        ];
      return [];
    });
    const offered = [
      ...(choices.length > 0
        ? [`${[...new Set(choices.map(choice => choice.kind))].join(', ')} (pick one with "kind")`]
        : []),
      ...skipped,
    ];
    throw new HubError(
      'NOT_FOUND',
      `Server "${official}" offers no ${request.kind ?? 'package or remote'} hub can run${offered.length > 0 ? `; it offers: ${offered.join('; ')}` : ''}.`,
    );
  }
  const name = request.name ?? officialServerName(server);
  const common = { name, start: request.start, requiredEnv: [] as string[] };
  if (pick.remote) {
    const launch = remoteLaunch(pick.remote, request.env ?? {});
    return install(
      {
        ...common,
        url: launch.url,
        ...(Object.keys(launch.headers).length > 0 && { headers: launch.headers }),
        env: launch.env,
        ...((pick.remote.type === 'sse' || pick.remote.type === 'streamable-http') && { transport: pick.remote.type }),
      },
      context,
    );
  }
  const pkg = pick.pkg!;
  const runtime = checkRuntime(pick.kind, context.pathEnv);
  if (!runtime.runnable)
    throw new HubError(
      'INSTALL_FAILED',
      `Server "${official}" is ${describeKind(pick.kind)} and needs ${runtime.needs}, which is not on PATH; install it, then call registry.install again. Nothing was installed.`,
    );
  const args = request.args ? [...request.args] : launchArguments(pkg.packageArguments, 'package');
  const { env, required } = launchEnv(pkg.environmentVariables, request.env ?? {});
  if (pick.kind === 'npm')
    return install(
      {
        ...common,
        package: pkg.version === undefined ? pkg.identifier : `${pkg.identifier}@${pkg.version}`,
        args,
        env,
        requiredEnv: required,
        ...(request.allowScripts !== undefined && { allowScripts: request.allowScripts }),
      },
      context,
    );
  if (pick.kind === 'mcpb')
    return installMcpb({ pkg, name, env, required, args: request.args, start: request.start }, context, install);
  const names = [...new Set([...(pkg.environmentVariables ?? []).map(input => input.name), ...Object.keys(env)])];
  return install(
    {
      ...common,
      command: runtime.runtime!,
      args: launchLine(pick.kind as 'pypi' | 'oci', runtime.runtime!, pkg, args, names),
      env,
      kind: pick.kind,
      requiredEnv: required,
    },
    context,
  );
}
