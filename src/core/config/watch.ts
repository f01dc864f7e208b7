// config.json followed while a hub runs (issue 27): an edit applies within a second, as the
// project file's does. A file caught half-written is looked at again before hub warns, and a
// file that stays invalid keeps the last good settings with one warning naming the file and field.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { reloadConfig, type HubConfig } from './config.js';
import type { Logger } from '../logger.js';

// Several events come for one save (write, rename): read once they have settled.
const SETTLE_MS = 50;
// An editor or script still writing: looked at once more before it counts as invalid.
const RECHECK_MS = 300;

/**
 * Settings a running hub cannot take up, because what they size was built at its start (the
 * process manager, the child slots, the logger). docs/configuration.md "Configuration" marks them; a change
 * is logged with "applies after `hub stop`". Every other setting applies at once; toolNames to
 * sessions that start after the change (a session keeps the names it listed).
 */
export const AFTER_HUB_STOP: readonly string[] = [
  'logLevel',
  'maxRunningProcesses',
  'logCapBytes',
  'resultCapBytes',
  'callTimeoutMs',
  'idleStopMs',
  'proxy.allowUnsolicitedRequests',
  'proxy.stableMs',
  'serve.sessionIdleMs',
  'serve.maxSessions',
  'tasks.maxWaitMs',
];

/** Follows config.json for a running hub; calls onChange with the settings that changed. Returns a stop. */
export function watchConfig(
  config: HubConfig,
  log: Logger,
  onChange?: (changed: readonly string[]) => void,
): () => void {
  const file = config.paths.configFile;
  let timer: NodeJS.Timeout | undefined;
  let warned: string | undefined;
  let watcher: FSWatcher | undefined;
  const check = (again: boolean) => {
    const result = reloadConfig(config);
    if ('problem' in result) {
      if (!again) timer = setTimeout(() => check(true), RECHECK_MS).unref();
      else if (result.problem !== warned) {
        warned = result.problem;
        log.warn(`config.json not applied, keeping the settings in use: ${result.problem}`);
      }
      return;
    }
    warned = undefined;
    if (result.changed.length === 0) return;
    const later = result.changed.filter(key => AFTER_HUB_STOP.includes(key));
    log.info(
      { changed: result.changed, ...(later.length > 0 && { afterHubStop: later }) },
      later.length > 0
        ? `config.json changed: ${result.changed.join(', ')} (${later.join(', ')} applies after \`hub-mcp stop\`)`
        : `config.json changed: ${result.changed.join(', ')} applied`,
    );
    onChange?.(result.changed);
  };
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
      if (name !== null && name !== basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => check(false), SETTLE_MS).unref();
    });
    watcher.on('error', () => watcher?.close());
  } catch (error) {
    // No HUB_HOME folder (a read-only or missing one): config.json is read at the next start.
    log.debug({ err: error }, 'config.json cannot be watched; it is read again at the next start');
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
