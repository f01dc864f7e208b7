// In-process order of updates to one store file, so only the head contends for the lock.
import { AsyncLocalStorage } from 'node:async_hooks';
import { HubError } from '../core/errors.js';

// In-process order for one store file: updates from the same process queue here and only the
// head contends for the file lock (no process polls against itself), and an update started
// from inside another one is reported instead of waiting on itself forever.

const tails = new Map<string, Promise<unknown>>();
const running = new AsyncLocalStorage<{ key: string; active: boolean }>();

export function serialize<T>(key: string, task: () => Promise<T>): Promise<T> {
  const outer = running.getStore();
  if (outer?.key === key && outer.active) {
    return Promise.reject(
      new HubError(
        'INTERNAL',
        `store.update on ${key} was called from inside another update of the same store; make the change in the outer update instead.`,
      ),
    );
  }
  const token = { key, active: false };
  const run = (tails.get(key) ?? Promise.resolve()).then(() =>
    running.run(token, async () => {
      token.active = true;
      try {
        return await task();
      } finally {
        token.active = false;
      }
    }),
  );
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
