import { execFile, spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './cleanup.mjs';
import { connectStdio } from './mcp.mjs';

// Instructions a proxy's own process executes per proxied call, counted by valgrind's callgrind:
// a figure the machine's noise cannot move (wall-clock and CPU ratios on a shared 2-core box
// hide differences of 30 % and more). Only the proxy process runs under callgrind; the child
// server it starts (and the client) run natively. Counters are zeroed after the warm-up and
// dumped after the measured calls with callgrind_control, which reaches a process blocked in a
// syscall through vgdb, so start-up, warm-up and shutdown are not in the count at all.

const run = promisify(execFile);
// hub's hot functions reach TurboFan only after ~5000 calls (V8's tier-up budget counts
// bytecode run, and each runs once per call): a shorter warm-up counts the compiler's work.
export const COUNT_PLAN = { warmup: 6000, calls: 1000 };
const ECHO_ARGS = { message: 'hello from the hub bench' };
// node under callgrind runs some 50× slower: every request gets a generous timeout.
const TIMEOUT_MS = 600_000;
// V8's memory reducer starts a major GC when the allocation rate per second drops, which a
// process slowed ~50× by callgrind always looks like: off for every process measured, so the
// count holds the GC work the calls cause, not the slowdown's.
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--no-memory-reducer').split(' ').filter(Boolean);

/** Why instructions cannot be counted here, or undefined when valgrind and callgrind_control work. */
export function callgrindMissing() {
  for (const tool of ['valgrind', 'callgrind_control']) {
    const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) return `${tool} is not installed (apt-get install valgrind)`;
  }
  return undefined;
}

const totalIn = text => {
  const match = text.match(/^totals:\s+(\d+)/m) ?? text.match(/^summary:\s+(\d+)/m);
  if (!match) throw new Error('no totals line in the callgrind output');
  return Number(match[1]);
};

/**
 * Instructions of the process started by `args` (a node script) per call of `tool`, over `calls`
 * sequential calls after `warmup` calls: { perCall (all threads), mainPerCall, total, calls, warmup, msPerCall, seconds }.
 */
export async function countInstructions({ args, env = {}, tool, warmup, calls, log = () => undefined, keepIn }) {
  // keepIn: a directory to keep the callgrind files in (for callgrind_annotate), else a temp dir.
  const dir = keepIn ?? (await tempDir('hub-bench-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const started = Date.now();
  const connection = await connectStdio({
    command: 'valgrind',
    args: [
      '-q',
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      process.execPath,
      ...NODE_FLAGS,
      ...args,
    ],
    env,
    timeoutMs: TIMEOUT_MS,
  });
  try {
    const call = async () => {
      const result = await connection.client.callTool({ name: tool, arguments: ECHO_ARGS }, undefined, {
        timeout: TIMEOUT_MS,
      });
      if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
    };
    // As a client does: list first (hub learns the installed servers' tools on its first look).
    await connection.client.listTools(undefined, { timeout: TIMEOUT_MS });
    for (let i = 0; i < warmup; i++) await call();
    await run('callgrind_control', ['--zero', String(connection.pid)]);
    const window = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const msPerCall = (performance.now() - window) / calls;
    await run('callgrind_control', ['--dump', String(connection.pid)]);
    // The dump on request is callgrind.out.1-<thread> per thread (-01 is the main thread, the
    // others V8's compiler and GC helpers); the final one comes at exit.
    const dumped = (await readdir(dir)).filter(name => /^callgrind\.out\.1-\d+$/.test(name));
    if (dumped.length === 0) throw new Error('callgrind_control --dump wrote no file');
    let total = 0;
    let main = 0;
    for (const name of dumped) {
      const count = totalIn(await readFile(join(dir, name), 'utf8'));
      total += count;
      if (name.endsWith('-01')) main = count;
    }
    const seconds = (Date.now() - started) / 1000;
    // Timers (metrics publishing, sweeps) fire per second: ~50× slower calls see them ~50× as often.
    log(
      `    ${args[0].split('/').pop()}: ${total} instructions (main thread ${main}) over ${calls} calls, ${msPerCall.toFixed(1)} ms per call under callgrind (${seconds.toFixed(0)} s in all)`,
    );
    const perCall = Math.round(total / calls);
    return { perCall, mainPerCall: Math.round(main / calls), total, calls, warmup, msPerCall, seconds };
  } finally {
    await connection.close();
  }
}
