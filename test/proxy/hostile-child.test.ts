// Hostile children (test/fixtures/hostile-child.mjs, raw stdio): whatever one writes, hub stays
// up, answers each caller under its own id only, and the other servers' tools stay listed.
import { describe, expect, test } from 'vitest';
import { fastResponse } from '../../src/proxy/raw-result.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture } from '../helpers/hub.js';
import { ECHO, commandRecord, putRecords, startHarness, until } from './harness.js';

const HOSTILE = fixture('hostile-child.mjs');
const hostileRecord = (name: string, env: Record<string, string> = {}) =>
  commandRecord(name, [HOSTILE], { env, tools: [{ name: 'say', inputSchema: { type: 'object' } }] });

const ids = (line: string): string[] => [...line.matchAll(/"id":("[^"]*"|\d+)/g)].map(match => match[1] ?? '');

describe('a result carrying a second "id"', () => {
  test('fastResponse leaves lines with any member besides result and our id to JSON.parse', () => {
    const r = '{"content":[{"type":"text","text":"x"}]}';
    for (const line of [
      `{"jsonrpc":"2.0","id":"hub-1","result":${r},"id":7}`,
      `{"jsonrpc":"2.0","id":"hub-1","result":${r},"id":"c1"}`,
      `{"result":${r},"id":7,"jsonrpc":"2.0","id":"hub-1"}`,
      `{"result":${r}}{"result":${r},"jsonrpc":"2.0","id":"hub-1"}`,
      `{"jsonrpc":"2.0","id":"hub-1","result":{"a":"}"},"id":7}`,
    ])
      expect(fastResponse(line), line).toBeUndefined();
    // Brackets and quotes inside strings do not end the result early.
    const tricky = '{"content":[{"type":"text","text":"} ] \\" },\\"id\\":7 {"}]}';
    expect(fastResponse(`{"jsonrpc":"2.0","id":"hub-4","result":${tricky}}`)?.id).toBe('hub-4');
    expect(fastResponse(`{"result":${tricky},"jsonrpc":"2.0","id":"hub-5"}`)?.id).toBe('hub-5');
  });

  test('is never delivered to another in-flight call, and the right caller gets its answer', async () => {
    const home = await makeHubHome();
    const h = await startHarness(home, { manager: { callTimeoutMs: 1500 } });
    await putRecords(h.store, hostileRecord('bad'));
    await h.manager.reload();
    const lines: string[] = [];
    const fast = h.manager.fastPath(line => {
      lines.push(line);
      return Promise.resolve();
    });
    const send = (id: string, args: Record<string, unknown>) =>
      expect(fast({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bad.say', arguments: args } })).toBe(
        true,
      );
    // A waits in the child; B's answer names A as a second id, after ours and before it.
    send('A', { mode: 'hold', text: 'for A' });
    await until(() => expect(h.manager.status('bad')).resolves.toMatchObject([{ state: 'ready' }]));
    send('B', { mode: 'second-id', text: 'for B', steal: 'A' });
    send('C', { mode: 'second-id-last', text: 'for C', steal: 'A' });
    await until(() => expect(lines.length).toBeGreaterThanOrEqual(3));
    for (const line of lines) expect(ids(line), line).toHaveLength(1);
    const byId = new Map(lines.map(line => [(JSON.parse(line) as { id: string }).id, line]));
    expect(byId.get('A')).toContain('for A');
    expect(byId.get('C')).toContain('for C');
    // B's line named two ids: it answers nobody (B ends in its timeout, as with a silent child).
    expect(byId.get('B') ?? '').not.toContain('for B');
  });
});
