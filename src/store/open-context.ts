// The one way hub opens itself for every entry point: settings, then logger, then store.
import { loadConfig, type HubConfig } from '../core/config/config.js';
import { createLogger, silentLogger, type Logger } from '../core/logger.js';
import { openAudit } from './audit/log.js';
import { openStore, type Store } from './store.js';

/** What every entry point works with: the settings, a logger, and the store. */
export interface HubContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
}

export interface OpenContextOptions {
  /** Where HUB_HOME and the HUB_* settings come from (a client's env for `hub import`, a test's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * 'silent' logs nothing (a build step, a command whose every answer goes to its caller);
   * otherwise logs/hub.log under this name, warnings also on stderr unless `stderr: false`
   * (the CLI prints its own one-line errors).
   */
  readonly log?: 'silent' | { readonly name: string; readonly stderr?: boolean };
}

/** The one way hub opens itself: loadConfig → createLogger → openStore, for every entry point. */
export function openContext(options: OpenContextOptions = {}): HubContext {
  const config = loadConfig((options.env ?? process.env) as NodeJS.ProcessEnv);
  const wanted = options.log ?? { name: 'hub' };
  const log =
    wanted === 'silent'
      ? silentLogger
      : createLogger(config, wanted.name, wanted.stderr === undefined ? {} : { stderr: wanted.stderr });
  const store = openStore(config.paths, log);
  // The audit log masks the store's secrets and follows config.json's audit settings.
  openAudit(config, log, store);
  return { config, log, store };
}
