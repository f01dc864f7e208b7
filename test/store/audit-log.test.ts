// The audit log's writer and reader on real files (docs/audit.md): rotation, redaction, bounds.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import type { AuditSettings } from '../../src/core/config/config.js';
import { AuditLog } from '../../src/store/audit/log.js';
import { AUDIT_LINE_MAX } from '../../src/store/audit/line.js';
import { readAudit } from '../../src/store/audit/read.js';
import { makeHubHome } from '../helpers/home.js';

const settings = (over: Partial<AuditSettings> = {}): AuditSettings => ({
  enabled: true,
  maxBytes: 64 * 1024,
  maxAgeHours: 24,
  keepDays: 30,
  inputText: false,
  ...over,
});

const call = (n: number, args: unknown = { n }) =>
  ({ kind: 'call', t: Date.now(), server: 's', tool: 't', args, ms: 1, outcome: 'ok' }) as const;

test('rotated by size: every line kept, across files read back oldest first; files are 0600', async () => {
  const dir = hubPaths(await makeHubHome()).auditDir;
  const audit = new AuditLog(dir);
  audit.settings = () => settings();
  for (let n = 0; n < 3_000; n += 1) {
    audit.record(call(n, { n, text: 'x'.repeat(100) }));
    if (n % 100 === 99) audit.flush();
  }
  audit.close();
  const files = readdirSync(dir).filter(name => name.endsWith('.jsonl'));
  expect(files.length).toBeGreaterThan(3);
  for (const name of files) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const { entries, unreadable } = await readAudit(dir, {});
  expect(unreadable).toBe(0);
  expect(entries.map(entry => (entry.args as { n: number }).n)).toEqual(Array.from({ length: 3_000 }, (_, n) => n));
});

test('arguments: secret names and store secrets masked, long values cut with a hash, every line under 4 KB', async () => {
  const dir = hubPaths(await makeHubHome()).auditDir;
  const audit = new AuditLog(dir);
  audit.settings = () => settings();
  const long = 'y'.repeat(5_000);
  audit.record(
    call(1, {
      apiKey: 'k-123456789',
      client_secret: 's-123456789',
      keys: ['Enter'],
      author: 'Ada',
      url: 'https://user:hunter2hunter2@example.com/x',
      header: 'Bearer abcdefghijkl',
      long,
      deep: { a: { b: { c: { d: { e: 1 } } } } },
      many: Array.from({ length: 100 }, (_, i) => i),
    }),
  );
  audit.record(call(2, { blob: Array.from({ length: 200 }, (_, i) => `${i}`.repeat(150)) }));
  audit.close();
  const text = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
  for (const secret of ['k-123456789', 's-123456789', 'hunter2hunter2', 'abcdefghijkl', long])
    expect(text).not.toContain(secret);
  for (const line of text.split('\n').filter(Boolean)) expect(Buffer.byteLength(line)).toBeLessThan(AUDIT_LINE_MAX);
  const [first, second] = (await readAudit(dir, {})).entries;
  expect(first!.args).toMatchObject({
    apiKey: '***',
    client_secret: '***',
    keys: ['Enter'],
    author: 'Ada',
    url: 'https://user:***@example.com/x',
    header: 'Bearer ***',
    long: expect.stringMatching(/^y{80}… \[5000 chars, sha256 [0-9a-f]{16}\]$/),
    deep: { a: { b: { c: '[object]' } } },
  });
  expect((first!.args as { many: unknown[] }).many).toHaveLength(21);
  expect(second!.args).toMatchObject({ '[cut]': expect.stringMatching(/chars$/), sha256: expect.any(String) });
});

test('a folder it cannot write: the call goes on, the lines are counted as lost, nothing throws', async () => {
  const home = await makeHubHome();
  const dir = hubPaths(home).auditDir;
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o500);
  try {
    const audit = new AuditLog(dir);
    audit.settings = () => settings();
    audit.record(call(1));
    expect(() => audit.flush()).not.toThrow();
    // root writes anyway: then the line is there instead.
    if (process.getuid?.() !== 0) expect(audit.lost).toBe(1);
  } finally {
    chmodSync(dir, 0o700);
  }
});

test('audit.enabled false records nothing', async () => {
  const dir = hubPaths(await makeHubHome()).auditDir;
  const audit = new AuditLog(dir);
  audit.settings = () => settings({ enabled: false });
  audit.record(call(1));
  audit.close();
  expect((await readAudit(dir, {})).entries).toEqual([]);
});

test('onRecord hands every record to a listener (the telemetry hook), even one that throws, until it lets go', async () => {
  const dir = hubPaths(await makeHubHome()).auditDir;
  const audit = new AuditLog(dir);
  audit.settings = () => settings({ enabled: false });
  const seen: string[] = [];
  audit.onRecord(() => {
    throw new Error('a broken listener');
  });
  const stop = audit.onRecord(entry => seen.push(entry.kind));
  audit.record(call(1));
  stop();
  audit.record(call(2));
  expect(seen).toEqual(['call']);
});
