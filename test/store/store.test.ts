// The store's own contract in one process: snapshots are private copies, and an update that
// changes nothing writes nothing.
import { statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';

describe('store', () => {
  test('an update that changes nothing leaves db.json as it was (same inode)', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const store = openStore(paths);
    await store.update(data => void (data.reservations[4000] = 1));
    const before = statSync(paths.db).ino;
    expect(await store.update(data => data.reservations[4000])).toBe(1);
    expect(await openStore(paths).update(() => 'other instance')).toBe('other instance');
    expect(statSync(paths.db).ino).toBe(before);
    await store.update(data => void (data.reservations[4001] = 1));
    expect(statSync(paths.db).ino).not.toBe(before);
  });

  test('snapshots and update results are private copies: changing them changes nothing stored', async () => {
    const home = await makeHubHome();
    const store = openStore(hubPaths(home));
    const returned = await store.update(data => {
      data.reservations[4000] = 1;
      return data;
    });
    returned.reservations[4000] = 99;
    const snapshot = await store.read();
    snapshot.reservations[4000] = 98;
    expect((await store.read()).reservations[4000]).toBe(1);
    expect(await store.update(data => data.reservations[4000])).toBe(1);
  });
});
