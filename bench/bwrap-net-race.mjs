// Starts sandboxed children the way hub does (bwrap --unshare-net + slirp4netns, network.ts), N at once, and counts bwrap setup failures.
// Usage: node bench/bwrap-net-race.mjs [rounds=100] [parallel=2]   (needs `npm run build`, bwrap and slirp4netns)
import { spawn } from 'node:child_process';
import { networkFor, findSlirp } from '../dist/proxy/sandbox/network.js';

const rounds = Number(process.argv[2] ?? 100);
const parallel = Number(process.argv[3] ?? 2);
const slirp = findSlirp(process.env.PATH);
if (slirp === undefined) throw new Error('slirp4netns is not installed');
const mounts = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
mounts.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');

// Exits 0 only when the default route goes out through tap0: slirp4netns configured it before the command ran.
const ROUTE_CHECK =
  'while read -r dev dest rest; do [ "$dev $dest" = "tap0 00000000" ] && exit 0; done < /proc/net/route; exit 3';

function start() {
  const net = networkFor('all', slirp);
  const wrapped = net.wrap ?? [];
  const args = [...net.bwrapArgs, ...mounts, '--', ...wrapped, '/bin/sh', '-c', ROUTE_CHECK];
  return new Promise(resolve => {
    const child = spawn('bwrap', args, {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe', ...Array(net.extraStdio).fill('pipe')],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', d => (out += d));
    child.stderr.on('data', d => (err += d));
    child.once('spawn', () => net.onSpawn?.(child, line => (err += line)));
    child.stdin.end();
    child.once('close', code => resolve({ code, out: out.trim(), err: err.trim() }));
  });
}

const failures = new Map();
let bad = 0;
const began = Date.now();
for (let round = 0; round < rounds; round += 1) {
  const results = await Promise.all(Array.from({ length: parallel }, start));
  for (const result of results) {
    // A good start runs the command with its network up: its default route is via tap0 (slirp4netns configured it).
    if (result.code === 0 && result.err === '') continue;
    bad += 1;
    const key = `code ${result.code}: ${result.err.split('\n').pop()} (out: ${result.out})`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
}
const total = rounds * parallel;
console.log(`${bad} of ${total} starts failed (${parallel} at once, ${Date.now() - began} ms)`);
for (const [key, count] of failures) console.log(`  ${count}x ${key}`);
process.exitCode = bad === 0 ? 0 : 1;
