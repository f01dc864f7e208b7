// Installs and upgrades started from the dashboard, consent asked on the page, progress as events.
import { scriptsChoiceOf } from '../registry/decisions/scripts-choice.js';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { errorMessage, HubError } from '../core/errors.js';
import type { ServerManager } from '../proxy/manager-types.js';
import { describePlan, type InstallPlan } from '../registry/decisions/consent.js';
import type { HubContext } from '../store/open-context.js';
import type { InstallInputSchema } from '../tools/registry-schemas.js';

// Installs and upgrades started from the dashboard run the same installServer as registry.install
// and `hub install`, with its consent rules: the plan (exact package, npm line, launch line,
// install scripts) is put to the person on the page, as elicitation puts it to a client's user,
// unless install.confirm is "never". Progress and the outcome go out as "install" events.

// Unanswered consent expires like elicitation's (registry/decisions/consent.ts).
const CONSENT_TIMEOUT_MS = 10 * 60_000;

export type InstallEvent =
  | { job: string; kind: 'progress'; message: string }
  | { job: string; kind: 'consent'; text: string }
  | { job: string; kind: 'done'; name: string; state: string; tools: number; version: string | null }
  | { job: string; kind: 'failed'; error: string };

export interface InstallJobs {
  start(input: z.infer<typeof InstallInputSchema>): string;
  answer(job: string, approve: boolean): void;
  close(): void;
}

export function createInstallJobs(
  context: HubContext & { readonly manager: ServerManager },
  emit: (event: InstallEvent) => void,
): InstallJobs {
  const waiting = new Map<string, (approve: boolean) => void>();
  const confirmFor =
    (job: string) =>
    (plan: InstallPlan): Promise<void> => {
      if (context.config.install.confirm === 'never') return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => decide(false), CONSENT_TIMEOUT_MS);
        timer.unref();
        const decide = (approve: boolean) => {
          clearTimeout(timer);
          waiting.delete(job);
          emit({ job, kind: 'progress', message: approve ? 'approved' : 'declined' });
          if (approve) resolve();
          else reject(new HubError('CONSENT_DECLINED', `The install of "${plan.name}" was declined on the dashboard.`));
        };
        waiting.set(job, decide);
        emit({ job, kind: 'consent', text: describePlan(plan) });
      });
    };

  return {
    start(input) {
      const job = randomBytes(6).toString('hex');
      void (async () => {
        const [{ installServer }, { catalogHints, suggestServerName }] = await Promise.all([
          import('../registry/install/install.js'),
          import('../registry/install/hints.js'),
        ]);
        const { allowScripts, ...rest } = input;
        const scripts = scriptsChoiceOf(allowScripts);
        const result = await installServer(
          { ...rest, ...(scripts !== undefined && { allowScripts: scripts }) },
          {
            ...context,
            confirm: confirmFor(job),
            deriveName: suggestServerName,
            lookup: catalogHints,
            pathEnv: process.env.PATH,
            progress: (message, heartbeat) => {
              if (!heartbeat) emit({ job, kind: 'progress', message });
            },
          },
        );
        emit({
          job,
          kind: 'done',
          name: result.name,
          state: result.background ? 'installing' : result.state,
          tools: result.tools.length,
          version: result.version ?? null,
        });
      })().catch((error: unknown) => emit({ job, kind: 'failed', error: errorMessage(error) }));
      return job;
    },
    answer(job, approve) {
      const decide = waiting.get(job);
      if (!decide) throw new HubError('NOT_FOUND', `No install "${job}" is waiting for an answer.`);
      decide(approve);
    },
    close() {
      for (const decide of waiting.values()) decide(false);
    },
  };
}
