// Issue 26 item 2: the shared hub's socket is never in a folder someone else controls, and no
// entry sends its hello (the client's whole environment) to a socket another user could have put.
// Another local user is simulated by uid 65534 (nobody): the tests run as root to chown.
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, lchownSync, lstatSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { readHubRecord } from '../../../src/hub-link/record.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, type HubSession } from '../../helpers/hub.js';
import { sharedHubPid, stopSharedHubIn } from '../../helpers/shared-hub.js';

const uid = process.getuid?.() ?? -1;
const OTHER = 65534;

/** A folder owned by another user, mode 0777. */
function othersFolder(path: string): string {
  mkdirSync(path);
  chmodSync(path, 0o777);
  chownSync(path, OTHER, OTHER);
  onTestFinished(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

/** The other user listening at path (her socket, in her folder), keeping every byte sent to it. */
async function trap(path: string): Promise<{ bytes: () => string; close: () => Promise<void> }> {
  rmSync(path, { force: true });
  const received: Buffer[] = [];
  const server: Server = createServer(socket => {
    socket.on('error', () => undefined);
    socket.on('data', chunk => received.push(chunk));
  });
  await new Promise<void>(resolve => server.listen(path, resolve));
  lchownSync(path, OTHER, OTHER);
  onTestFinished(() => new Promise<void>(resolve => server.close(() => resolve())));
  return {
    bytes: () => Buffer.concat(received).toString(),
    close: () => new Promise(resolve => server.close(() => resolve())),
  };
}

const hubLog = (home: string): string => {
  const file = join(home, 'logs', 'hub.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

async function works(hub: HubSession): Promise<void> {
  expect((await hub.call('list_processes')).isError).toBeFalsy();
}

// Failed before: the hub made its socket in /tmp/hub-<uid> whoever owned it; the other user swapped
// it and received the next client's hello, its environment included.
test.runIf(uid === 0)(
  'HUB_HOME too long, no XDG_RUNTIME_DIR, /tmp/hub-<uid> pre-made by another user: the hub never listens there, no environment reaches her',
  async () => {
    const attacker = `/tmp/hub-${uid}`;
    expect(existsSync(attacker), `${attacker} exists already; this test makes it as another user's`).toBe(false);
    othersFolder(attacker);
    // Too long for sun_path with hub.sock in it.
    const home = join(await makeHubHome(), 'h'.repeat(110));
    mkdirSync(home, { mode: 0o700 });
    const hash = createHash('sha256').update(home).digest('hex').slice(0, 16);
    const trapPath = join(attacker, `${hash}.sock`);
    let caught = await trap(trapPath);
    const env = { XDG_RUNTIME_DIR: undefined, TMPDIR: undefined, HUB_TEST_SECRET: 'secret-of-a' };
    const a = await spawnHub(home, { env });
    let b: HubSession | undefined;
    let socket: string | undefined;
    try {
      await works(a);
      socket = readHubRecord(join(home, 'hub.json'))?.socket;
      expect(socket).toBeDefined();
      expect(dirname(socket!)).not.toBe(attacker);
      const folder = lstatSync(dirname(socket!));
      expect(folder.isDirectory()).toBe(true);
      expect(folder.isSymbolicLink()).toBe(false);
      expect(folder.uid).toBe(uid);
      expect(folder.mode & 0o777).toBe(0o700);
      expect(lstatSync(socket!).uid).toBe(uid);
      // She swaps what is at the usual path again; the next client still reaches the hub, not her.
      await caught.close();
      caught = await trap(trapPath);
      b = await spawnHub(home, { env: { ...env, HUB_TEST_SECRET: 'secret-of-b' } });
      await works(b);
      await works(a);
      expect(b.stderr?.()).not.toMatch(/running in-process/);
      expect(sharedHubPid(home)).toBeDefined();
      expect(caught.bytes()).toBe('');
      const warnings = hubLog(home)
        .split('\n')
        .filter(line => line.includes('the shared hub socket is not put where others can write'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${attacker} is owned by uid ${OTHER}`);
    } finally {
      await b?.close();
      await a.close();
      await stopSharedHubIn(home);
    }
    // The folder made for that hub went with it.
    expect(existsSync(dirname(socket!))).toBe(false);
  },
);

// Failed before: the entry sent its hello to whatever socket hub.json named. A hub.json can name
// such a socket when an earlier hub put it in a folder others could write.
test.runIf(uid === 0)(
  'hub.json naming a socket in a folder another user can write: the entry sends nothing there and runs in-process',
  async () => {
    const home = await makeHubHome();
    const a = await spawnHub(home);
    let b: HubSession | undefined;
    const recordFile = join(home, 'hub.json');
    await works(a);
    const original = readFileSync(recordFile, 'utf8');
    try {
      const theirs = othersFolder(join(await mkdtemp(join(tmpdir(), 'hub-other-')), 'shared'));
      const caught = await trap(join(theirs, 'hub.sock'));
      await writeFile(recordFile, JSON.stringify({ ...JSON.parse(original), socket: join(theirs, 'hub.sock') }));
      b = await spawnHub(home, { env: { HUB_TEST_SECRET: 'secret-of-b' } });
      await works(b);
      expect(caught.bytes()).toBe('');
      expect(b.stderr?.()).toMatch(
        /running in-process, not on the shared hub: the shared hub's socket is not private \(.*is owned by uid 65534/,
      );
    } finally {
      await writeFile(recordFile, original);
      await b?.close();
      await a.close();
    }
  },
);
