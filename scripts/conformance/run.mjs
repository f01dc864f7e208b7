// Processes the conformance script starts, each on 127.0.0.1 and each stopped at the end.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Starts a process and resolves once its output matches `ready` (the match), or rejects when it exits first. */
export function startUntil(command, args, { env, ready, what }) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const matched = new Promise((resolve, reject) => {
    const look = chunk => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve(match);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', code =>
      reject(new Error(`${what} exited (${code}) before it was ready:\n${output.slice(-2000)}`)),
    );
  });
  return { child, matched, output: () => output };
}

/** SIGTERM, then how long it took to exit (SIGKILL after 20 s). */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return 0;
  const started = performance.now();
  const gone = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await gone;
  clearTimeout(timer);
  return performance.now() - started;
}

/** Runs the suite's CLI to its end; resolves to its output (it exits 1 when a check fails). */
export async function runSuite(node, cli, args) {
  const child = spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  await once(child, 'exit');
  return output;
}

/** The suite's summary lines: scenario → { passed, failed }. */
export function summaryOf(output) {
  const scenarios = new Map();
  const summary = output.slice(output.lastIndexOf('=== SUMMARY ==='));
  for (const match of summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gmu)) {
    scenarios.set(match[1], { passed: Number(match[2]), failed: Number(match[3]) });
  }
  // One scenario (--scenario) prints no summary, only its result.
  const single = /Running client scenario '([^']+)'[\s\S]*Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
  if (scenarios.size === 0 && single)
    scenarios.set(single[1], { passed: Number(single[2]), failed: Number(single[4]) });
  return scenarios;
}
