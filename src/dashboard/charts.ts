// GET /api/charts: calls per minute and process CPU and memory, counts and names only.
import { callHistory, type MinutePoint } from '../proxy/calls/history.js';
import type { ProcessSeries, UsageSampler } from './usage-sampler.js';

// GET /api/charts: what the page's Charts view draws. Only counts, times, and the names the page
// shows elsewhere (server names, process names): never arguments, results, commands or env.

export interface ChartsView {
  /** Per server, its calls of the last hour by minute (this hub process's calls). */
  readonly servers: { readonly name: string; readonly minutes: MinutePoint[] }[];
  /** Per process, its CPU and memory while the dashboard was open. */
  readonly processes: ProcessSeries[];
  readonly now: number;
}

export const chartsView = (sampler: UsageSampler): ChartsView => ({
  servers: Object.entries(callHistory.lastHour())
    .map(([name, minutes]) => ({ name, minutes }))
    .sort((a, b) => a.name.localeCompare(b.name)),
  processes: sampler.series(),
  now: Date.now(),
});
