// The slots kept in step with db.json, which this hub, the CLI and other hubs change.
import { errorMessage } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import type { Logger } from '../../core/logger.js';
import type { Store } from '../../store/store.js';
import { watchDb } from '../../store/db-watch.js';
import type { ToolMemo } from './records.js';
import type { Slots } from './slots.js';

export interface StoreSync {
  /** Re-reads the store's records now and applies them to the slots. */
  reload(): Promise<void>;
  /** reload(), when db.json changed since the last look (another hub installed or removed one). */
  refresh(): Promise<void>;
  close(): void;
}

/** Keeps the slots in step with db.json, which this hub, the CLI and other hubs all change. */
export function syncWithStore(deps: {
  paths: HubPaths;
  store: Store;
  log: Logger;
  memo: ToolMemo;
  slots: Slots;
  /** The slots took new records: the routes are rebuilt before their old children have stopped. */
  applied(): void;
}): StoreSync {
  const { paths, store, log, memo, slots } = deps;
  const reload = async () => {
    dbWatch.mark();
    const data = await store.read();
    const stopped = slots.reconcile(Object.values(data.servers).map(record => memo.attach(record)));
    deps.applied();
    await stopped;
  };
  const refresh = async () => {
    if (!slots.closed && dbWatch.changed()) await reload();
  };
  const dbWatch = watchDb(paths.db, () => {
    refresh().catch(error => log.debug({ err: errorMessage(error) }, 'could not re-read servers'));
  });
  return { reload, refresh, close: () => dbWatch.close() };
}
