// One of the store section's writer processes: waits for "go", makes `count` changes through
// hub's real openStore (lock → re-read → change → atomic write), and reports each latency.
// The build is dist/, or the one given (a copy of dist/ in this repo, for bench/ab.mjs --store).
import { pathToFileURL } from 'node:url';

const [home, tag, total, countText, build] = process.argv.slice(2);
const count = Number(countText);
const dist = build ? pathToFileURL(`${build}/`) : new URL('../dist/', import.meta.url);
const { hubPaths } = await import(new URL('core/paths.js', dist).href);
const { openStore } = await import(new URL('store/store.js', dist).href);
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
