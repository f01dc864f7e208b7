import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { HUB_JS } from './mcp.mjs';
import { onCleanup } from './cleanup.mjs';

// A client's opening as Claude Code sends it, over raw pipes: initialize; on its answer,
// notifications/initialized and tools/list, prompts/list and resources/list in one write. Times
// are from spawn to each answer's last byte, so they hold what hub does, not what an SDK client
// does with the answer (the SDK client compiles every tool's outputSchema with ajv on tools/list).

const LISTS = ['tools/list', 'prompts/list', 'resources/list'];

const baseEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
});

/**
 * ms from spawn to initialize's answer, to tools/list's, and to the last of the three lists'
 * (`lists: ['tools/list']` asks for tools only). Ends the session by closing stdin.
 */
export async function firstTurn(home, env = {}, lists = LISTS) {
  const start = performance.now();
  const child = spawn(process.execPath, [HUB_JS], {
    env: { ...baseEnv(), HUB_HOME: home, ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = once(child, 'exit');
  const unregister = onCleanup(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const at = new Map();
  let pending = '';
  let tools = 0;
  const answered = new Promise((resolve, reject) => {
    child.once('exit', code => reject(new Error(`hub exited (${code}) before answering the first turn`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', text => {
      pending += text;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const message = JSON.parse(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (message.id === undefined || message.method !== undefined) continue;
        at.set(message.id, performance.now() - start);
        if (message.id === 0) {
          const opening = [{ jsonrpc: '2.0', method: 'notifications/initialized' }];
          lists.forEach((method, i) => opening.push({ jsonrpc: '2.0', id: i + 1, method }));
          child.stdin.write(opening.map(line => `${JSON.stringify(line)}\n`).join(''));
        }
        if (message.id === 1) tools = message.result?.tools?.length ?? 0;
        if (lists.every((_, i) => at.has(i + 1))) resolve();
      }
    });
  });
  const params = {
    protocolVersion: '2025-06-18',
    capabilities: { roots: {} },
    clientInfo: { name: 'claude-code', version: '2.1.197' },
  };
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params })}\n`);
  try {
    await answered;
  } finally {
    child.stdin.end();
    await exited;
    unregister();
  }
  return {
    initMs: at.get(0),
    toolsMs: at.get(1),
    lastListMs: Math.max(...lists.map((_, i) => at.get(i + 1))),
    tools,
  };
}

/** Stops the shared hub of home (if one runs), and waits until it has. */
export async function stopSharedHub(home) {
  const child = spawn(process.execPath, [HUB_JS, 'stop'], { env: { ...baseEnv(), HUB_HOME: home }, stdio: 'ignore' });
  await once(child, 'exit');
}
