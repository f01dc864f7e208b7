// start_process's sandbox: the call's, narrowed (never widened) by the project's .hub.json.
import { resolve } from 'node:path';
import type { ProcessSandboxAsk } from '../process/lifecycle/sandbox.js';
import { readProjectFile } from '../proxy/exposure/project-file.js';
import { findProjectFile } from '../proxy/exposure/project-lookup.js';

// A project's `.hub.json` "processes": {"sandbox": ...} makes the sandbox the default for the
// processes started in it. A repository file may only narrow: it turns the sandbox on (or the
// network off), never off when the call asked for it. An invalid file is ignored here, as the
// exposure ignores it (and warns).

const rank = { project: 1, 'project-offline': 2 } as const;

/** The sandbox a start runs in: the call's, or the project's default, whichever is narrower. */
export function startSandbox(
  asked: ProcessSandboxAsk | undefined,
  cwd: string | undefined,
  baseCwd: string | undefined,
): ProcessSandboxAsk | undefined {
  const folder = resolve(baseCwd ?? process.cwd(), cwd ?? '.');
  const file = findProjectFile([folder]);
  const scope = file === undefined ? undefined : readProjectFile(file);
  const project = scope?.kind === 'project' ? scope.processes?.sandbox : undefined;
  if (project === undefined) return asked;
  if (asked === undefined) return project;
  return rank[project] > rank[asked] ? project : asked;
}
