// One of the store section's writer processes: waits for "go", makes `count` changes through
// hub's real openStore (lock → re-read → change → atomic write), and reports each latency.
import { hubPaths } from '../dist/core/paths.js';
import { openStore } from '../dist/store/store.js';

const [home, tag, total, countText] = process.argv.slice(2);
const count = Number(countText);
const store = openStore(hubPaths(home));

process.once('message', async () => {
  const latenciesMs = [];
  // Time holding the lock (from our fn running to update() resolving: work, write, unlock).
  let heldMs = 0;
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    let entered = 0;
    // Read-modify-write of a shared counter and of our own: a lost update shows as a short
    // count, and db.json keeps its size however many changes are made.
    await store.update(data => {
      entered = performance.now();
      data.reservations[total] = (data.reservations[total] ?? 0) + 1;
      data.reservations[tag] = (data.reservations[tag] ?? 0) + 1;
    });
    const end = performance.now();
    heldMs += end - entered;
    latenciesMs.push(end - start);
  }
  process.send({ latenciesMs, heldMs }, () => process.exit(0));
});
process.send('ready');
