// What a client shows a person from hub's stderr: one readable line per warning, never a JSON
// record with a stack (offline search used to write kilobytes of stack per source).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, onTestFinished, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';

test('a search with every network source down writes one short line per failed source to stderr', async () => {
  const home = await makeHubHome();
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      HUB_HOME: home,
      HUB_REGISTRY_URL: 'http://127.0.0.1:9',
      HUB_NPM_REGISTRY: 'http://127.0.0.1:9',
      // In-process on purpose: a shared hub's warnings go to logs/hub.log, not to this entry's
      // stderr (per-session stderr needs the session's own logger, issue 15).
      HUB_SHARED: 'off',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  onTestFinished(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  let stderr = '';
  child.stderr.on('data', chunk => (stderr += chunk));
  let stdout = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  const write = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  write({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  write({ method: 'notifications/initialized' });
  write({ id: 2, method: 'tools/call', params: { name: 'registry_search', arguments: { query: 'memory' } } });
  await vi.waitFor(() => expect(stdout).toContain('"id":2'), { timeout: 30_000, interval: 20 });
  child.stdin.end();
  await exited;

  const lines = stderr.trim().split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const line of lines) {
    expect(line).toMatch(/^hub: (warning|error|fatal): /);
    expect(line.length).toBeLessThanOrEqual(1000);
  }
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).toContain('could not be reached');
});
