// Two sandboxed children started at once with the default network (bwrap --unshare-net and
// slirp4netns, sandbox/network.ts) both start, with their network up before they run. slirp4netns
// used to start as soon as bwrap had forked and bring the namespace's loopback up before bwrap
// added 127.0.0.1 to it: bwrap then died with "loopback: Failed RTM_NEWADDR" (about one start in
// five, two at once, on this machine; bench/bwrap-net-race.mjs measures it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ChildProcessTransport } from '../../../src/proxy/child/transport.js';
import { ServerLog } from '../../../src/proxy/child/server-log.js';
import { findSlirp, networkFor } from '../../../src/proxy/sandbox/network.js';

const ROUNDS = 30;
const dir = mkdtempSync(join(tmpdir(), 'hub-net-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Exits 0 only when the default route goes out through tap0: slirp4netns configured it first.
const ROUTE_CHECK =
  'while read -r dev dest rest; do [ "$dev $dest" = "tap0 00000000" ] && exit 0; done < /proc/net/route; exit 3';
const MOUNTS = ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];

async function start(index: number): Promise<{ code: number | null; log: string }> {
  const net = networkFor('all', findSlirp(process.env.PATH));
  const file = join(dir, `${index}.log`);
  const transport = new ChildProcessTransport({
    command: 'bwrap',
    args: [...net.bwrapArgs, ...MOUNTS, '--', ...(net.wrap ?? []), '/bin/sh', '-c', ROUTE_CHECK],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    log: new ServerLog(file),
    extraStdio: net.extraStdio,
    onSpawn: net.onSpawn,
  });
  const closed = new Promise<void>(resolve => (transport.onclose = resolve));
  await transport.start();
  await closed;
  return { code: transport.exit?.code ?? null, log: readFileSync(file, 'utf8') };
}

test('sandboxed children started two at once all start, each with its network up', { timeout: 120_000 }, async () => {
  const failed: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const results = await Promise.all([start(round * 2), start(round * 2 + 1)]);
    for (const { code, log } of results) if (code !== 0) failed.push(`code ${code}: ${log.trim()}`);
  }
  expect(failed).toEqual([]);
});
