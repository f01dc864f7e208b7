import { loadConfig, type HubConfig } from '../core/config.js';
import { createLogger, type Logger } from '../core/logger.js';
import { openStore, type Store } from '../store/store.js';

export interface CliContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
}

// One way every CLI command opens hub: config, a logger that writes only to logs/hub.log (the
// command prints its own one-line errors; JSON log lines on a terminal help nobody), the store.
export function openContext(env: NodeJS.ProcessEnv = process.env): CliContext {
  const config = loadConfig(env);
  const log = createLogger(config, 'hub-cli', { stderr: false });
  return { config, log, store: openStore(config.paths, log) };
}
