// Long installs: registry.install answers within a budget (about 30 s, below the 60 s request
// timeout of SDK clients); past it the install goes on in the background. Its step is kept in
// HUB_HOME/installs/<name>.json so registry.list { server } (in any hub, or the CLI) can show it,
// and a failure stays there, with npm's words, until the next install of that name.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { HubConfig } from '../../core/config/config.js';
import { pidAlive } from '../../core/process-identity.js';
import { writeFileAtomic } from '../../core/write-atomic.js';

export const PendingInstallSchema = z.object({
  name: z.string(),
  package: z.string(),
  state: z.enum(['installing', 'failed']),
  step: z.string().describe('What npm or hub is doing now, or why it failed'),
  startedAt: z.string(),
  pid: z.number().int(),
});
export type PendingInstall = z.infer<typeof PendingInstallSchema>;

export const DEFAULT_FOREGROUND_MS = 30_000;

const folder = (config: Pick<HubConfig, 'home'>): string => join(config.home, 'installs');
const fileOf = (config: Pick<HubConfig, 'home'>, name: string): string => join(folder(config), `${name}.json`);

/** The install of name in progress (or failed in the background), if any; one whose hub died reads as failed. */
export function readPendingInstall(config: Pick<HubConfig, 'home'>, name: string): PendingInstall | undefined {
  try {
    const parsed = PendingInstallSchema.safeParse(JSON.parse(readFileSync(fileOf(config, name), 'utf8')));
    if (!parsed.success) return undefined;
    const pending = parsed.data;
    if (pending.state === 'installing' && !pidAlive(pending.pid))
      return {
        ...pending,
        state: 'failed',
        step: `the hub that was installing it (pid ${pending.pid}) stopped before it finished (last step: ${pending.step}); call registry.install again.`,
      };
    return pending;
  } catch {
    return undefined;
  }
}

export function listPendingInstalls(config: Pick<HubConfig, 'home'>): PendingInstall[] {
  let names: string[];
  try {
    names = readdirSync(folder(config)).filter(file => file.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap(file => readPendingInstall(config, file.slice(0, -5)) ?? []);
}

/** Keeps the step file of one install current; written atomically (temp + rename), removed on success. */
export function trackInstall(config: Pick<HubConfig, 'home'>, name: string, pkg: string, firstStep: string) {
  const startedAt = new Date().toISOString();
  const write = (state: PendingInstall['state'], step: string) => {
    try {
      mkdirSync(folder(config), { recursive: true, mode: 0o700 });
      writeFileAtomic(
        fileOf(config, name),
        JSON.stringify({ name, package: pkg, state, step, startedAt, pid: process.pid } satisfies PendingInstall),
      );
    } catch {
      // Only a progress display: the install itself does not depend on it.
    }
  };
  write('installing', firstStep);
  return {
    step: (step: string) => write('installing', step),
    failed: (why: string) => write('failed', why),
    done: () => rmSync(fileOf(config, name), { force: true }),
  };
}

export type Race<T> = { readonly settled: true; readonly value: T } | { readonly settled: false };

/** Waits for work at most budgetMs; a rejection within the budget is rethrown. */
export async function within<T>(work: Promise<T>, budgetMs: number): Promise<Race<T>> {
  // No budget (a person at a terminal watches the install): wait for the work itself.
  if (!Number.isFinite(budgetMs)) return { settled: true, value: await work };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Race<T>>(resolve => {
    timer = setTimeout(() => resolve({ settled: false }), budgetMs);
  });
  try {
    return await Promise.race([work.then(value => ({ settled: true as const, value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
