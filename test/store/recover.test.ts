// db.json as people and crashes leave it: garbage, one bad record, a newer hub's file, a
// deleted file, a file from before the version field, and a change that breaks the schema.
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import type { ProcessRecord, ServerRecord } from '../../src/store/schema.js';
import { emptyStore } from '../../src/store/schema.js';
import { openStore } from '../../src/store/store.js';
import { makeHubHome } from '../helpers/home.js';

const processRecord = (id: string): ProcessRecord => ({
  id,
  command: 'sleep 1',
  cwd: '/tmp',
  envKeys: [],
  tags: [],
  ports: [],
  pid: 4242,
  status: 'exited',
  startedAt: '2026-01-01T00:00:00.000Z',
  logFile: `/tmp/${id}.log`,
});

const serverRecord = (name: string): ServerRecord => ({
  name,
  command: 'node',
  args: ['server.js'],
  env: {},
  mode: 'command',
  installedAt: '2026-01-01T00:00:00.000Z',
  order: 1,
  autoStart: false,
  tools: [],
});

// A real pino logger writing JSON lines to a file the test reads back.
function fileLogger(home: string) {
  const file = join(home, 'test.log');
  const log = pino({ level: 'info' }, pino.destination({ dest: file, sync: true }));
  const lines = () =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(line => JSON.parse(line) as { level: number; msg: string; movedTo?: string; dropped?: number })
      : [];
  return { log, lines };
}

const asides = (home: string) => readdirSync(home).filter(name => name.startsWith('db.json.corrupt-'));

describe('store recovery', () => {
  test('garbage is moved aside verbatim, logged as an error, and the store starts empty', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    writeFileSync(paths.db, '{"version": 1, "servers": {tru');
    const { log, lines } = fileLogger(home);
    const store = openStore(paths, log);
    expect(await store.read()).toEqual(emptyStore());
    const [aside] = asides(home);
    expect(aside).toMatch(/^db\.json\.corrupt-\d{4}-\d\d-\d\dT/);
    expect(readFileSync(join(home, aside!), 'utf8')).toBe('{"version": 1, "servers": {tru');
    const [entry] = lines().filter(line => line.level === 50);
    expect(entry?.movedTo).toBe(join(home, aside!));
    expect(entry?.msg).toContain('not valid JSON');
    expect(JSON.parse(readFileSync(paths.db, 'utf8'))).toEqual(emptyStore());
  });

  test('valid JSON with one bad record: moved aside, the good records kept, one dropped', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const bad = { ...processRecord('p2'), pid: 'not a number' };
    const text = JSON.stringify({
      version: 1,
      servers: { memory: serverRecord('memory') },
      processes: { p1: processRecord('p1'), p2: bad },
      reservations: { 4000: 1 },
    });
    writeFileSync(paths.db, text);
    const { log, lines } = fileLogger(home);
    const store = openStore(paths, log);
    const data = await store.update(current => current);
    expect(Object.keys(data.processes)).toEqual(['p1']);
    expect(data.servers.memory).toEqual(serverRecord('memory'));
    expect(data.reservations).toEqual({ 4000: 1 });
    expect(asides(home)).toHaveLength(1);
    expect(readFileSync(join(home, asides(home)[0]!), 'utf8')).toBe(text);
    const [entry] = lines().filter(line => line.level === 50);
    expect(entry).toMatchObject({ dropped: 1 });
    expect(entry?.msg).toContain('processes.p2.pid');
  });

  test('a file from a newer hub is refused and left untouched', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const text = JSON.stringify({ version: 99, servers: {}, processes: {}, future: true });
    writeFileSync(paths.db, text);
    const store = openStore(paths);
    for (const attempt of [store.read(), store.update(() => 1)]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'STORE_CORRUPT' });
      expect(String((error as Error).message)).toMatch(/newer hub \(store version 99.*upgrade hub/);
    }
    expect(readFileSync(paths.db, 'utf8')).toBe(text);
    expect(asides(home)).toEqual([]);
  });

  test('a deleted db.json reads as empty, and the next change recreates it', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const store = openStore(paths);
    await store.update(data => void (data.processes.p1 = processRecord('p1')));
    unlinkSync(paths.db);
    expect(await store.read()).toEqual(emptyStore());
    await store.update(data => void (data.reservations[5000] = 1));
    expect(await store.read()).toEqual({ ...emptyStore(), reservations: { 5000: 1 } });
  });

  test('db.json is pretty-printed JSON a person can read', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    await openStore(paths).update(data => void (data.processes.p1 = processRecord('p1')));
    const text = readFileSync(paths.db, 'utf8');
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text).toContain('\n    "p1": {\n      "id": "p1",');
  });

  test('a file from before the version field is migrated, not moved aside', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    writeFileSync(paths.db, JSON.stringify({ servers: {}, processes: { p1: processRecord('p1') } }));
    const data = await openStore(paths).update(current => current);
    expect(data.version).toBe(1);
    expect(data.processes.p1).toEqual(processRecord('p1'));
    expect(asides(home)).toEqual([]);
  });

  test('a change that would break the schema is refused and the file keeps its last good state', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    const store = openStore(paths);
    await store.update(data => void (data.processes.p1 = processRecord('p1')));
    const before = readFileSync(paths.db, 'utf8');
    const error = await store
      .update(data => void (data.processes.p1!.pid = Number.NaN))
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INTERNAL' });
    expect(String((error as Error).message)).toContain('processes.p1.pid');
    expect(readFileSync(paths.db, 'utf8')).toBe(before);
    expect(await store.update(data => data.processes.p1?.pid)).toBe(4242);
  });
});

describe('store file errors', () => {
  test('a db.json that cannot be read is reported as one sentence naming the file', async () => {
    const home = await makeHubHome();
    const paths = hubPaths(home);
    mkdirSync(paths.db);
    const store = openStore(paths);
    for (const attempt of [store.read(), store.update(() => 1)]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'INTERNAL' });
      expect(String((error as Error).message)).toMatch(
        new RegExp(`^The store ${paths.db} could not be read or written \\(EISDIR.*then retry\\.$`),
      );
    }
  });

  test("errors thrown by the caller's change pass through untouched and nothing is written", async () => {
    const home = await makeHubHome();
    const store = openStore(hubPaths(home));
    const mine = Object.assign(new Error('ENOENT: mine'), { code: 'ENOENT', syscall: 'open' });
    await expect(
      store.update(data => {
        data.reservations[1] = 1;
        throw mine;
      }),
    ).rejects.toBe(mine);
    expect(await store.read()).toEqual(emptyStore());
  });
});
