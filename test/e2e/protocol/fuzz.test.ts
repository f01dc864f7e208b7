// Protocol fuzz against the built hub over raw stdio: malformed frames, odd ids, wrong types and
// bad tool inputs never crash hub, never put anything but JSON-RPC on stdout, and every
// well-formed request gets exactly one answer. Seeded, so a failure is reproducible:
// HUB_FUZZ_SEED=<n> replays a run; HUB_SOAK=1 sends 10,000 frames instead of 600.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, onTestFinished, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';

const SOAK = process.env.HUB_SOAK === '1';
const FRAMES = SOAK ? 10_000 : 600;
const SEED = Number(process.env.HUB_FUZZ_SEED ?? Date.now() % 1_000_000);

// mulberry32: a tiny seeded PRNG, so one seed always makes the same frames.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Tools that only read, or that fail on the inputs below before anything runs: the fuzz must
// not start processes or installs on the machine.
const TOOLS = [
  'list_processes',
  'get_process_logs',
  'registry_list',
  'registry.list',
  'get_free_port',
  'registry_search',
  'kill_process',
  'registry_call',
  'no_such_tool',
  '',
];
const METHODS = [
  'tools/list',
  'tools/call',
  'ping',
  'resources/list',
  'prompts/list',
  'initialize',
  'notifications/cancelled',
  'completion/complete',
  'logging/setLevel',
  'x/unknown',
  '',
];

function frames(rand: () => number): { lines: string[]; expected: Set<string> } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const junk = (): unknown =>
    pick<unknown>([
      null,
      true,
      -1,
      1e308,
      '',
      'x'.repeat(Math.floor(rand() * 5000)),
      '\u0000\u001b]0;\u0007',
      [],
      [1, [2, [3]]],
      {},
      JSON.parse('{"__proto__":{"polluted":true}}'),
      JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
      '(a+)+$',
      '../../../../etc/passwd',
    ]);
  const lines: string[] = [];
  const expected = new Set<string>();
  for (let index = 0; index < FRAMES; index++) {
    const kind = rand();
    const id = pick<string | number>([index, `s${index}`, -index - 1]);
    if (kind < 0.1) {
      // Not JSON at all, or truncated JSON.
      lines.push(pick(['{', '}{', 'garbage', '{"jsonrpc":"2.0","id":', '\u0000\u0000', '['.repeat(2000), '"\\ud800"']));
    } else if (kind < 0.2) {
      // Valid JSON that is not a JSON-RPC message.
      lines.push(
        JSON.stringify(
          pick([
            junk(),
            [1, 2],
            { jsonrpc: '1.0', id, method: 'ping' },
            { id, result: {} },
            { jsonrpc: '2.0', id: { nested: 1 }, method: 'ping' },
          ]),
        ),
      );
    } else if (kind < 0.3) {
      // A batch (removed from the protocol in 2025-06-18).
      lines.push(JSON.stringify([{ jsonrpc: '2.0', id, method: 'ping' }]));
    } else if (kind < 0.45) {
      // Notifications: never answered.
      lines.push(
        JSON.stringify({
          jsonrpc: '2.0',
          method: pick([
            'notifications/cancelled',
            'notifications/progress',
            'notifications/initialized',
            'notifications/x',
          ]),
          params: junk(),
        }),
      );
    } else {
      const method = pick(METHODS);
      const params =
        method === 'tools/call'
          ? pick([
              {
                name: pick(TOOLS),
                arguments: pick([
                  junk(),
                  {
                    id: junk(),
                    lines: junk(),
                    grep: junk(),
                    cursor: junk(),
                    server: junk(),
                    tool: junk(),
                    preferred: junk(),
                    host: '256.0.0.1',
                  },
                ]),
              },
              junk(),
            ])
          : junk();
      const message: Record<string, unknown> = { jsonrpc: '2.0', id, method };
      if (params !== undefined && rand() < 0.8) message.params = params;
      lines.push(JSON.stringify(message));
      // Each id is used once, so "exactly one answer" is checkable.
      if (method !== '' && !method.startsWith('notifications/')) expected.add(JSON.stringify(id));
    }
  }
  return { lines, expected };
}

test(
  `protocol fuzz: ${FRAMES} frames (seed ${SEED}) leave hub up, stdout pure JSON-RPC, each request answered once`,
  { timeout: SOAK ? 600_000 : 60_000 },
  async () => {
    const home = await makeHubHome();
    const child = spawn(process.execPath, [SERVER_JS], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        HUB_HOME: home,
        // Search sources that fail at once instead of reaching out.
        HUB_REGISTRY_URL: 'http://127.0.0.1:9',
        HUB_NPM_REGISTRY: 'http://127.0.0.1:9',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    onTestFinished(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    });
    child.stderr.resume();
    const answers = new Map<string, number>();
    const bad: string[] = [];
    const longErrors: string[] = [];
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      pending += text;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(line) as Record<string, unknown>;
        } catch {
          bad.push(line.slice(0, 200));
          continue;
        }
        if (message.jsonrpc !== '2.0') bad.push(line.slice(0, 200));
        const error = message.error as { message?: string } | undefined;
        if (error && String(error.message).length > 2000) longErrors.push(String(error.message).slice(0, 200));
        if (!('method' in message) && 'id' in message) {
          const key = JSON.stringify(message.id);
          answers.set(key, (answers.get(key) ?? 0) + 1);
        }
      }
    });

    const write = (line: string) => child.stdin.write(`${line}\n`);
    write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
      }),
    );
    write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const { lines, expected } = frames(random(SEED));
    // In chunks, so hub reads frames split across reads as a real pipe delivers them.
    for (let start = 0; start < lines.length; start += 50) {
      const chunk = `${lines.slice(start, start + 50).join('\n')}\n`;
      const cut = Math.floor(chunk.length / 2);
      child.stdin.write(chunk.slice(0, cut));
      child.stdin.write(chunk.slice(cut));
      await new Promise(resolve => setImmediate(resolve));
    }
    // A final well-formed request: once it is answered, hub has read everything before it.
    write(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/list' }));
    // Then slow answers (a search whose sources fail) may still be on their way. A hub that exits
    // ends the wait: the checks below say what it left unanswered.
    await vi
      .waitFor(
        () => {
          if (child.exitCode !== null) return;
          expect(answers.has('"last"')).toBe(true);
          expect([...expected].filter(id => !answers.has(id))).toEqual([]);
        },
        { timeout: SOAK ? 500_000 : 50_000, interval: 20 },
      )
      .catch(() => undefined);

    expect(child.exitCode, `hub exited during the fuzz (seed ${SEED})`).toBeNull();
    expect(bad, `non-JSON-RPC lines on stdout (seed ${SEED})`).toEqual([]);
    expect(longErrors, `error messages over 2,000 characters (seed ${SEED})`).toEqual([]);
    const unanswered = [...expected].filter(id => !answers.has(id));
    expect(unanswered, `requests never answered (seed ${SEED})`).toEqual([]);
    const twice = [...answers].filter(([, count]) => count > 1).map(([id]) => id);
    expect(twice, `requests answered more than once (seed ${SEED})`).toEqual([]);

    child.stdin.end();
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  },
);
