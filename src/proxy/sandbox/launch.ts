// How a stdio child is launched: inside bubblewrap unless a person said otherwise.
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { HubError } from '../../core/errors.js';
import { resolveExecutable } from '../../core/executable.js';
import type { HubPaths } from '../../core/paths.js';
import { sandboxProbe } from '../../core/sandbox-probe.js';
import type { ServerRecord } from '../../store/schema.js';
import type { ClientSide, RelaySource } from '../sessions/client-side.js';
import { bwrapArgs } from './mounts.js';
import { planSandbox } from './plan.js';
import { findSlirp, networkFor, type NetworkLaunch } from './network.js';
import { namedHostsLaunch } from './named-hosts.js';
import { projectNarrowing } from './project-narrowing.js';

// How a stdio child is launched: inside bubblewrap unless a person said otherwise, and never
// unsandboxed because no sandbox could run (the start fails and says how to allow it).

/** What every child of a manager is sandboxed with. */
export interface SandboxContext {
  readonly paths: HubPaths;
  /** config.json sandbox.enabled, read at each start (a running hub follows edits). */
  enabled(): boolean;
}

export interface Launch {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
  /** One line for the server's log: the sandbox it runs in, or why none. */
  readonly note: string;
  /** Its network relay (network.ts). */
  readonly extraStdio?: number;
  readonly onSpawn?: NetworkLaunch['onSpawn'];
}

const ROOTS_TIMEOUT_MS = 3_000;

/** The session's roots as absolute paths (none when no client answers). */
async function sessionRoots(client: ClientSide, from: RelaySource | undefined): Promise<string[]> {
  if (client.capabilities()?.roots === undefined) return [];
  try {
    const { roots } = await client.listRoots(undefined, {
      signal: AbortSignal.timeout(ROOTS_TIMEOUT_MS),
      ...(from && { from }),
    });
    return roots.flatMap(root => {
      try {
        return root.uri.startsWith('file:') ? [fileURLToPath(root.uri)] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** How to run a server without its sandbox: the person's two ways. */
export const unsandboxedHow = (name: string): string =>
  `to run it unsandboxed, a person runs \`hub-mcp servers configure ${name} --no-sandbox\` (this server) or sets "sandbox": { "enabled": false } in config.json (every server)`;

export interface LaunchInput {
  readonly record: ServerRecord;
  readonly env: Record<string, string>;
  readonly sandbox: SandboxContext | undefined;
  readonly client: ClientSide;
  readonly from?: RelaySource | undefined;
}

export async function launchFor(input: LaunchInput): Promise<Launch> {
  const { record, env, sandbox } = input;
  const plain = (note: string): Launch => ({ command: record.command, args: [...record.args], env, note });
  // A container runs in its own sandbox; a manager made without paths (none in hub) cannot plan one.
  if (record.kind === 'oci') return plain('sandbox: the container runtime');
  if (sandbox === undefined) return plain('sandbox: none (no HUB_HOME paths)');
  if (!sandbox.enabled()) return plain('sandbox: off (config.json sandbox.enabled: false)');
  if (record.settings?.sandbox?.enabled === false) return plain("sandbox: off (this server's settings)");
  // A command that is not there fails to spawn as it would unsandboxed (ENOENT): nothing runs.
  if (resolveExecutable(record.command, env.PATH ?? process.env.PATH, record.cwd ?? process.cwd()) === undefined)
    return plain('sandbox: none (the command was not found)');
  const found = await sandboxProbe();
  if (found.kind === 'none')
    throw new HubError(
      'CHILD_UNAVAILABLE',
      `server "${record.name}" was not started: no sandbox can run here (${found.why}); ${unsandboxedHow(record.name)}`,
    );
  const roots = await sessionRoots(input.client, input.from);
  const home = env.HOME ?? process.env.HOME ?? homedir();
  const project = projectNarrowing(record.name, record.settings?.sandbox, roots);
  const {
    plan,
    env: inside,
    refused,
  } = planSandbox({
    record: { ...record, settings: { ...record.settings, sandbox: project.sandbox } },
    paths: sandbox.paths,
    home,
    roots,
    env,
  });
  const net = networkFor(plan.network, findSlirp(env.PATH ?? process.env.PATH));
  const hosts = typeof plan.network === 'string' ? undefined : await namedHostsLaunch(plan.network);
  const note = [
    `sandbox: bwrap ${found.version}; ${hosts?.note ?? net.note}; writes ${plan.ownWrite.join(', ')}${plan.write.length > 0 ? `, ${plan.write.join(', ')}` : ''}; reads ${[...plan.ownRead, ...plan.read].join(', ') || 'the system only'}`,
    ...project.notes,
    ...refused.map(line => `sandbox: ${line}`),
  ].join('\n');
  return {
    command: found.path,
    args: [
      ...net.bwrapArgs,
      ...bwrapArgs(plan),
      ...(hosts?.mountArgs ?? []),
      '--',
      ...(hosts?.wrap ?? net.wrap ?? []),
      record.command,
      ...record.args,
    ],
    env: { ...env, ...inside, ...hosts?.env },
    note,
    extraStdio: net.extraStdio,
    onSpawn: hosts?.onSpawn ?? net.onSpawn,
  };
}
