import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { CallMetrics } from '../../../src/proxy/slots/metrics.js';
import { SharedServerStateSchema } from '../../../src/store/shared-state.js';

describe('CallMetrics percentiles', () => {
  test('p50 and p95 of the latest calls, published for other hubs and the dashboard', async () => {
    const metrics = new CallMetrics();
    expect(metrics.p50Ms).toBeNull();
    for (const ms of [1, 2, 3, 4, 100]) metrics.record(ms);
    expect(metrics.p50Ms).toBe(3);
    expect(metrics.p95Ms).toBe(100);
    const dir = await mkdtemp(join(tmpdir(), 'hub-metrics-'));
    try {
      metrics.shareTo(dir);
      metrics.publish();
      const published = SharedServerStateSchema.parse(
        JSON.parse(await readFile(join(dir, `${process.pid}.json`), 'utf8')),
      );
      expect(published).toMatchObject({ calls: 5, p50Ms: 3, p95Ms: 100 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
