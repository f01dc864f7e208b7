// The per-server stderr log: 0600, capped by dropping its oldest half, tail of the latest run.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { START_MARKER, ServerLog, logTail } from '../../../src/proxy/child/server-log.js';
import { makeHubHome } from '../../helpers/home.js';

describe('server log', () => {
  test('appends with mode 0600 and keeps the newest part under the cap', async () => {
    const file = join(await makeHubHome(), 'logs', 'servers', 'x.log');
    const log = new ServerLog(file, 64 * 1024);
    for (let i = 0; i < 12_000; i++) log.write(`line ${i}\n`);
    log.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file).size).toBeLessThanOrEqual(64 * 1024);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('line 11999\n');
    expect(text).not.toContain('line 0\n');
    expect(text).toContain('older log lines removed');
  });

  test('the tail shows only what the latest run wrote', async () => {
    const file = join(await makeHubHome(), 'x.log');
    const log = new ServerLog(file);
    log.write(`${START_MARKER}node a ---\nold failure\n`);
    log.write(`${START_MARKER}node a ---\nnew failure\nsecond line\n`);
    log.close();
    expect(await logTail(file)).toBe('new failure\nsecond line');
    expect(await logTail(join(file, 'missing'))).toBe('');
  });
});
