// The entry decides HUB_HOME and sharing without zod (store/cold-read.ts leanShared) and reads
// hub.json by hand (hub-link/record.ts): both must agree with the full config and never answer
// where it would answer differently.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config/config.js';
import { isHubRecord } from '../../src/hub-link/record.js';
import { leanShared } from '../../src/store/cold-read.js';

const home = mkdtempSync(join(tmpdir(), 'hub-lean-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const FILES: (string | undefined)[] = [
  undefined,
  '{}',
  '{"sharedHub":{"enabled":false}}',
  '{"sharedHub":{"enabled":true,"idleMs":5}}',
  '{"sharedHub":{"enabled":"no"}}',
  '{"sharedHub":{"idleMs":600000}}',
  '{"sharedHub":{"enabled":false},"toolNames":"neither"}',
  '{"logLevel":"debug","sharedHub":{"enabled":true}}',
  '{"toolNames":"dotted"}',
  'not json',
];
const ENVS: (string | undefined)[] = [undefined, 'on', 'off', 'yes', ''];

test('leanShared answers only what loadConfig would say', () => {
  let answered = 0;
  for (const file of FILES) {
    rmSync(join(home, 'config.json'), { force: true });
    if (file !== undefined) writeFileSync(join(home, 'config.json'), file);
    for (const shared of ENVS) {
      const env = { HUB_HOME: home, ...(shared !== undefined && { HUB_SHARED: shared }) };
      const lean = leanShared(env, home);
      if (lean === undefined) continue;
      answered++;
      let full: boolean | undefined;
      try {
        full = loadConfig(env).sharedHub.enabled;
      } catch {
        full = undefined;
      }
      expect({ file, shared, lean }).toEqual({ file, shared, lean: full });
    }
  }
  // It answers the common cases itself (no config.json, any file but one that turns sharing off,
  // HUB_SHARED on/off): the entry then loads no zod (test/e2e/entry-modules.test.ts).
  expect(answered).toBeGreaterThanOrEqual(25);
});

test('hub.json is read by hand with the same rules a schema would apply', () => {
  const good = { pid: 12, startTicks: 0, bootId: 'b', version: '0.1.0', socket: '/s', startedAt: 'now' };
  expect(isHubRecord(good)).toBe(true);
  for (const bad of [
    null,
    [],
    { ...good, pid: 0 },
    { ...good, pid: 1.5 },
    { ...good, startTicks: -1 },
    { ...good, version: '' },
    { ...good, socket: 3 },
    { ...good, bootId: undefined },
  ])
    expect(isHubRecord(bad)).toBe(false);
});
