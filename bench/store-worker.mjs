// One of the store section's writer processes: waits for "go", makes `count` changes through
// hub's real openStore (lock → re-read → change → atomic write), and reports each latency.
import { hubPaths } from '../dist/paths.js';
import { openStore } from '../dist/store/store.js';

const [home, tag, countText] = process.argv.slice(2);
const count = Number(countText);
const store = openStore(hubPaths(home));

process.once('message', async () => {
  const latenciesMs = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    // A reservation far in the future: a real kind of change, small, and never pruned meanwhile.
    await store.update(data => {
      data.reservations[`${tag}-${i}`] = Date.now() + 86_400_000;
    });
    latenciesMs.push(performance.now() - start);
  }
  process.send({ latenciesMs }, () => process.exit(0));
});
process.send('ready');
