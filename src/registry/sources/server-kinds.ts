// The kinds of server hub runs (npm, pypi, oci, mcpb, remote) and what each needs here.
import { delimiter } from 'node:path';
import { resolveExecutable } from '../../core/executable.js';

// The kinds of server the official MCP Registry lists that hub runs, and what each needs on this
// machine. What a kind needs and how to get it is said the same way by search and install.
export const SERVER_KINDS = ['npm', 'pypi', 'oci', 'mcpb', 'remote'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export interface RuntimeCheck {
  /** This machine has what the kind needs. */
  readonly runnable: boolean;
  /** The program that runs it here (uvx, pipx, docker, podman, node), when one is needed and found. */
  readonly runtime?: string;
  /** Without it: what is missing and how to get it. */
  readonly needs?: string;
}

const RUNTIMES: Record<ServerKind, { programs: readonly string[]; needs: string }> = {
  npm: { programs: ['npm'], needs: 'npm (it comes with Node.js: https://nodejs.org)' },
  pypi: {
    programs: ['uvx', 'pipx'],
    needs: 'uvx (install uv: https://docs.astral.sh/uv/getting-started/installation/) or pipx (https://pipx.pypa.io)',
  },
  oci: {
    programs: ['docker', 'podman'],
    needs: 'docker (https://docs.docker.com/get-started/get-docker/) or podman (https://podman.io/docs/installation)',
  },
  // Bundles are unpacked by hub; a Python bundle's own runtime is checked when it is installed.
  mcpb: { programs: [], needs: '' },
  remote: { programs: [], needs: '' },
};

const onPath = (program: string, pathEnv: string | undefined): boolean =>
  resolveExecutable(program, (pathEnv ?? '').split(delimiter).filter(Boolean).join(delimiter), process.cwd()) !==
  undefined;

/** Whether this machine can run a server of this kind, with what, or what it lacks. */
export function checkRuntime(kind: ServerKind, pathEnv: string | undefined = process.env.PATH): RuntimeCheck {
  const { programs, needs } = RUNTIMES[kind];
  if (programs.length === 0) return { runnable: true };
  const found = programs.find(program => onPath(program, pathEnv));
  return found === undefined ? { runnable: false, needs } : { runnable: true, runtime: found };
}

/** One program on PATH (python3 for a Python bundle), or undefined. */
export const findProgram = (program: string, pathEnv: string | undefined): boolean => onPath(program, pathEnv);

const KIND_WORDS: Record<ServerKind, string> = {
  npm: 'an npm package',
  pypi: 'a Python package (PyPI)',
  oci: 'a container image',
  mcpb: 'an MCP bundle (.mcpb)',
  remote: 'a remote server',
};
export const describeKind = (kind: ServerKind): string => KIND_WORDS[kind];
