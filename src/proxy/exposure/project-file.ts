// A project's own set of servers in .hub.json: its schema, reading it, watching its folders.
import { watch, type FSWatcher } from 'node:fs';
import { z } from 'zod';
import { EXPOSURE_MODES, type ExposureMode } from '../../core/config/config.js';
import { readProjectText } from './project-file-read.js';
import { findProjectFile, lookupFolders, PROJECT_FILE } from './project-lookup.js';

// A project's own set of servers: `.hub.json` at the project root (docs/exposure.md "Per-project sets");
// where it is looked for is project-lookup.ts.

export const ProjectFileSchema = z.strictObject({
  $schema: z.string().optional(),
  servers: z
    .array(z.string().min(1).max(100))
    .max(500)
    .describe('The installed servers this project uses (their names in registry.list); the others are not listed'),
  exposure: z.enum(EXPOSURE_MODES).optional().describe('all, search or auto, for clients working in this project'),
  sandbox: z
    .record(
      z.string().min(1).max(100),
      z.strictObject({
        read: z.array(z.string().max(4096)).max(50).optional(),
        write: z.array(z.string().max(4096)).max(50).optional(),
        network: z.union([z.enum(['all', 'none', 'host']), z.array(z.string().max(260)).max(50)]).optional(),
      }),
    )
    .optional()
    .describe('Per server: narrows its sandbox here (never widens it; sandbox/project-narrowing.ts)'),
  processes: z
    .strictObject({ sandbox: z.enum(['project', 'project-offline']).optional() })
    .optional()
    .describe("start_process's sandbox here unless the call asks a narrower one (tools/process-start.ts)"),
});
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

/** What applies to the session: a project's file (valid or not), or none. */
export type ProjectScope =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'project';
      readonly file: string;
      readonly servers: ReadonlySet<string>;
      readonly exposure?: ExposureMode;
      readonly sandbox?: ProjectFile['sandbox'];
      readonly processes?: ProjectFile['processes'];
    }
  | { readonly kind: 'invalid'; readonly file: string; readonly error: string };

// Bounded: a project file names servers, nothing more.
const MAX_BYTES = 64 * 1024;

/** The file read and checked; an invalid one names the field and the fix. */
export function readProjectFile(file: string): ProjectScope {
  const invalid = (error: string): ProjectScope => ({ kind: 'invalid', file, error: `${file}: ${error}` });
  let text: string;
  try {
    const read = readProjectText(file, MAX_BYTES);
    if ('problem' in read) return invalid(`${read.problem} The file is ignored.`);
    text = read.text;
  } catch (error) {
    return invalid(`cannot be read (${(error as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalid(`not valid JSON (${(error as Error).message}). Example: {"servers": ["github", "memory"]}.`);
  }
  const parsed = ProjectFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(issue => {
      const field = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
      return `field "${field}": ${issue.message}`;
    });
    return invalid(
      `${issues.join('; ')}. Expected {"servers": ["<installed server>", …], "exposure": "all" | "search" | "auto"} (exposure optional), "sandbox": {"<server>": {"read"?: [...], "write"?: [...], "network"?: ...}} (optional: it can only narrow).`,
    );
  }
  return {
    kind: 'project',
    file,
    servers: new Set(parsed.data.servers),
    ...(parsed.data.exposure !== undefined && { exposure: parsed.data.exposure }),
    ...(parsed.data.sandbox !== undefined && { sandbox: parsed.data.sandbox }),
    ...(parsed.data.processes !== undefined && { processes: parsed.data.processes }),
  };
}

// One warning per file and problem however many sessions and lookups meet it (one shared hub
// serves every client in that repository); a file read well since is warned about afresh.
const warned = new Map<string, string>();
const MAX_WARNED = 1_000;

/** Says once that an invalid project file is ignored. */
export function warnIgnored(project: ProjectScope, warn: (message: string) => void): void {
  if (project.kind === 'project') warned.delete(project.file);
  if (project.kind !== 'invalid' || warned.get(project.file) === project.error) return;
  if (warned.size >= MAX_WARNED) warned.clear();
  warned.set(project.file, project.error);
  warn(`Ignoring the project file: ${project.error}`);
}

export const resolveProject = (starts: readonly string[]): ProjectScope => {
  const file = findProjectFile(starts);
  return file === undefined ? { kind: 'none' } : readProjectFile(file);
};

/**
 * Watches the folders a lookup reads (a project file created, changed or removed anywhere on the
 * way); calls changed once per burst of events. Best effort: a folder that cannot be watched is
 * skipped. Never keeps hub alive.
 */
export function watchProjectFolders(starts: readonly string[], changed: () => void): () => void {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const folders = new Set(starts.flatMap(lookupFolders));
  for (const folder of folders) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name !== null && name !== PROJECT_FILE && name !== '.git') return;
        clearTimeout(timer);
        timer = setTimeout(changed, 50);
        timer.unref();
      });
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // Gone or not ours to watch: a change there is seen at the next roots change.
    }
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
