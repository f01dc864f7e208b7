// hub's own resource source in process, with a real process manager: closing it (hub closing)
// stops the updates of a process that keeps printing, and a subscription after close watches nothing.
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import { silentLogger } from '../../src/core/logger.js';
import { createLogWatch } from '../../src/process/log-watch.js';
import { createProcessManager } from '../../src/process/manager.js';
import { openStore } from '../../src/store/store.js';
import { createHubResources } from '../../src/tools/hub-resources.js';
import { makeHubHome } from '../helpers/home.js';

const never = new AbortController().signal;

describe('hub resources source', () => {
  test('close() stops the updates; subscribe after close watches nothing', async () => {
    const paths = hubPaths(await makeHubHome());
    const store = openStore(paths);
    const manager = createProcessManager({
      paths,
      store,
      log: silentLogger,
      maxRunning: 4,
      logCapBytes: 1024 * 1024,
      logReadBytes: 64 * 1024,
    });
    onTestFinished(() => manager.close());
    const updated: string[] = [];
    const source = createHubResources({
      store,
      paths,
      log: silentLogger,
      processes: () => Promise.resolve(manager),
      servers: () => Promise.reject(new Error('not used')),
      notifyUpdated: uri => updated.push(uri),
      notifyListChanged: () => undefined,
    });
    const { record } = await manager.start(
      { command: process.execPath, args: ['-e', 'setInterval(() => console.log("tick"), 20)'] },
      undefined,
      never,
    );
    const uri = `hub://processes/${record.id}/log`;
    expect(source.owns(uri)).toBe(true);
    expect(source.owns('file:///etc/passwd')).toBe(false);
    await source.subscribe(uri);
    await vi.waitFor(() => expect(updated.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(new Set(updated)).toEqual(new Set([uri]));

    source.close();
    const count = updated.length;
    await source.subscribe(`hub://processes/${record.id}/log?lines=5`);
    // A watch of its own on the same process (same coalescing) says when three windows of output
    // have passed: each one the closed source would have told.
    const witnessed: string[] = [];
    const witness = createLogWatch({ paths, onUpdate: id => witnessed.push(id) });
    onTestFinished(() => witness.close());
    witness.add(record);
    await vi.waitFor(() => expect(witnessed.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    expect(updated).toHaveLength(count);
    // Reads still answer (the manager is the process tools'; only the watching stopped).
    const read = await source.read(uri, { signal: never });
    expect(read.contents[0]).toMatchObject({
      uri,
      mimeType: 'text/plain',
      text: expect.stringContaining('tick') as string,
    });
  }, 30_000);
});
