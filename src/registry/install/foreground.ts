// Every long install step (a first install, an upgrade, a rebuild with newly allowed scripts)
// answers within config.install.foregroundMs, below the 60 s request timeout of SDK clients;
// past it the work goes on in the background, its step kept in HUB_HOME/installs/<name>.json.
import { errorMessage } from '../../core/errors.js';
import { trackInstall, within } from './background.js';
import type { InstallContext } from './context.js';
import type { InstallResult } from './result.js';

export interface ForegroundWork {
  readonly name: string;
  /** The package (and version or range) as the step file and registry.list show it. */
  readonly package: string;
  readonly firstStep: string;
  /**
   * The work. It reports steps with `context.progress` (only sent to the caller while it
   * waits) and listens to `context.signal` (aborted only while the caller may still cancel).
   */
  run(context: InstallContext): Promise<InstallResult>;
  /** What the early answer (state "installing", background: true) says of the server. */
  readonly shown: Pick<InstallResult, 'package' | 'version' | 'command' | 'logFile'>;
  /** The early answer's next step: what goes on, given the step at work and the seconds waited. */
  next(step: string, waitedSeconds: number): string;
}

export async function inForeground(work: ForegroundWork, context: InstallContext): Promise<InstallResult> {
  const { config, log } = context;
  const tracker = trackInstall(config, work.name, work.package, work.firstStep);
  // The caller may cancel while it waits; once the work goes on in the background, it no longer can.
  const abort = new AbortController();
  const onAbort = () => abort.abort(context.signal?.reason);
  context.signal?.addEventListener('abort', onAbort, { once: true });
  let detached = false;
  let current = work.firstStep;
  const say = (message: string, heartbeat?: boolean) => {
    if (!heartbeat) {
      current = message;
      tracker.step(message);
    }
    if (!detached) context.progress?.(message, heartbeat);
  };
  const running = work.run({
    ...context,
    progress: say,
    onNpmLine: line => (detached ? undefined : context.onNpmLine?.(line)),
    signal: abort.signal,
  });
  let race;
  try {
    race = await within(running, config.install.foregroundMs);
  } catch (error) {
    // The caller gets the error: nothing is left to follow.
    tracker.done();
    throw error;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
  if (race.settled) {
    tracker.done();
    return race.value;
  }
  detached = true;
  running.then(
    result => {
      tracker.done();
      log.info({ name: work.name, state: result.state, tools: result.tools.length }, 'background install finished');
    },
    (error: unknown) => {
      tracker.failed(errorMessage(error));
      log.warn({ name: work.name, err: errorMessage(error) }, 'background install failed');
    },
  );
  return {
    name: work.name,
    ...work.shown,
    mode: 'npm',
    state: 'installing',
    tools: [],
    missingEnv: [],
    background: true,
    step: current,
    next: work.next(current, Math.round(config.install.foregroundMs / 1000)),
  };
}
