// Each process's CPU and memory over the last hour, sampled only while a page is open.
import type { ProcessManager } from '../process/manager.js';
import { processUsage } from '../process/proc-usage.js';

// Each running process's CPU and memory over time, for the dashboard's charts: sampled only
// while a page is open (a hub nobody looks at reads no /proc), kept for an hour in memory.

const SAMPLE_EVERY_MS = 2_000;
const KEEP_MS = 60 * 60_000;
// What the page gets per process: at most this many points (the highest of each run of samples,
// so a spike is never averaged away).
const POINTS = 180;

export interface UsagePoint {
  readonly t: number;
  /** CPU use since the sample before, in % of one core (null for the first sample). */
  readonly cpuPct: number | null;
  readonly rssBytes: number;
}

export interface ProcessSeries {
  readonly id: string;
  readonly name: string;
  readonly points: UsagePoint[];
}

interface Series {
  name: string;
  samples: UsagePoint[];
  last?: { t: number; cpuMs: number };
}

export interface UsageSampler {
  series(): ProcessSeries[];
  close(): void;
}

export function createUsageSampler(processes: ProcessManager, watched: () => boolean): UsageSampler {
  const all = new Map<string, Series>();
  let busy = false;
  const sample = async () => {
    if (busy || !watched()) return;
    busy = true;
    try {
      const t = Date.now();
      for (const record of await processes.list({ status: 'running' })) {
        const usage = processUsage(record.pid);
        if (usage === undefined) continue;
        const series: Series = all.get(record.id) ?? { name: record.name ?? record.id, samples: [] };
        all.set(record.id, series);
        const cpuPct = series.last
          ? Math.max(0, Math.round(((usage.cpuMs - series.last.cpuMs) / (t - series.last.t)) * 1000) / 10)
          : null;
        series.last = { t, cpuMs: usage.cpuMs };
        series.samples.push({ t, cpuPct, rssBytes: usage.rssBytes });
      }
      for (const [id, series] of all) {
        while (series.samples.length > 0 && series.samples[0]!.t < t - KEEP_MS) series.samples.shift();
        if (series.samples.length === 0) all.delete(id);
      }
    } catch {
      // A record list that failed this once: the next tick tries again.
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_EVERY_MS);
  timer.unref();
  return {
    series: () => [...all].map(([id, series]) => ({ id, name: series.name, points: thinned(series.samples) })),
    close: () => clearInterval(timer),
  };
}

function thinned(samples: readonly UsagePoint[]): UsagePoint[] {
  if (samples.length <= POINTS) return [...samples];
  const size = Math.ceil(samples.length / POINTS);
  const out: UsagePoint[] = [];
  for (let from = 0; from < samples.length; from += size) {
    const run = samples.slice(from, from + size);
    const cpu = run.map(point => point.cpuPct).filter((value): value is number => value !== null);
    out.push({
      t: run.at(-1)!.t,
      cpuPct: cpu.length === 0 ? null : Math.max(...cpu),
      rssBytes: Math.max(...run.map(point => point.rssBytes)),
    });
  }
  return out;
}
