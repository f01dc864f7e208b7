// Small, exact statistics: nearest-rank percentiles over the raw samples.

export function percentile(samples, p) {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const median = samples => percentile(samples, 50);

export function summary(samples) {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
    min: samples.length ? Math.min(...samples) : Number.NaN,
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

export const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN);

export const round = (value, digits = 3) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/** Elapsed ms since a performance.now() mark. */
export const since = start => performance.now() - start;

/** Shuffled order of items for one interleaved round, seeded by the round number (reproducible). */
export function roundOrder(items, round) {
  const order = [...items];
  const shift = round % order.length;
  const rotated = [...order.slice(shift), ...order.slice(0, shift)];
  return round % 2 === 0 ? rotated : rotated.reverse();
}
