// The Charts view: per server, calls, errors and p50/p95 latency by minute over the last hour;
// per process, CPU and memory while the dashboard is open (GET /api/charts, src/dashboard/charts.ts).
// Hand-drawn inline SVG, no chart library: two chart kinds of a few dozen lines each, and a
// library would weigh more than the whole page. Each chart is an image with a summary for screen
// readers and a table with every number beside it.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, bytes } from './api.js';

const POLL_MS = 5_000;
const HOUR_MS = 60 * 60_000;
const W = 600;
const H = 120;
const PAD = { left: 48, right: 8, top: 8, bottom: 18 };
// Colours readable on the page's dark panel (WCAG AA for the axis text).
const COLOURS = { calls: '#7cc4ff', errors: '#ff8a80', p50: '#6fdc8c', p95: '#ffd166', cpu: '#7cc4ff', mem: '#6fdc8c' };
const AXIS = '#a9b3bf';

const clock = t => new Date(t).toTimeString().slice(0, 5);
const ms = value => (value === null || value === undefined ? '—' : `${value} ms`);
const niceMax = value => {
  if (!(value > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil(value / step) * step;
};

/** Axes, a time scale from `from` to `to`, and whatever marks draw() returns in that frame. */
function Frame({ id, summary, from, to, max, unit, children }) {
  return html`<svg
    viewBox=${`0 0 ${W} ${H}`}
    width="100%"
    role="img"
    aria-labelledby=${id}
    class="chart"
    data-chart=${id}
  >
    <title id=${id}>${summary}</title>
    <line x1=${PAD.left} y1=${H - PAD.bottom} x2=${W - PAD.right} y2=${H - PAD.bottom} stroke=${AXIS} />
    <line x1=${PAD.left} y1=${PAD.top} x2=${PAD.left} y2=${H - PAD.bottom} stroke=${AXIS} />
    <text x=${PAD.left - 4} y=${PAD.top + 8} fill=${AXIS} font-size="10" text-anchor="end">${max} ${unit}</text>
    <text x=${PAD.left - 4} y=${H - PAD.bottom} fill=${AXIS} font-size="10" text-anchor="end">0</text>
    <text x=${PAD.left} y=${H - 4} fill=${AXIS} font-size="10">${clock(from)}</text>
    <text x=${W - PAD.right} y=${H - 4} fill=${AXIS} font-size="10" text-anchor="end">${clock(to)}</text>
    ${children}
  </svg>`;
}

const scale = (from, to, max) => ({
  x: t => PAD.left + ((t - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right),
  y: v => H - PAD.bottom - (Math.min(v, max) / max) * (H - PAD.top - PAD.bottom),
});

function Line({ points, at, colour, label }) {
  const drawn = points.filter(point => point.v !== null && point.v !== undefined);
  if (drawn.length === 0) return '';
  const path = drawn.map((point, i) => `${i === 0 ? 'M' : 'L'}${at.x(point.t).toFixed(1)},${at.y(point.v).toFixed(1)}`);
  return html`<g aria-hidden="true"
    ><path d=${path.join('')} fill="none" stroke=${colour} stroke-width="1.5" data-series=${label} />${
      drawn.length === 1 && html`<circle cx=${at.x(drawn[0].t)} cy=${at.y(drawn[0].v)} r="2" fill=${colour} />`
    }</g
  >`;
}

function Legend({ items }) {
  return html`<p class="sub legend">
    ${items.map(
      ([label, colour]) =>
        html`<span
          ><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill=${colour} /></svg> ${label}
        </span> `,
    )}
  </p>`;
}

function ServerCharts({ server, now }) {
  const from = now - HOUR_MS;
  const calls = server.minutes.reduce((sum, minute) => sum + minute.calls, 0);
  const errors = server.minutes.reduce((sum, minute) => sum + minute.errors, 0);
  const latest = server.minutes.at(-1);
  const countMax = niceMax(Math.max(...server.minutes.map(minute => minute.calls)));
  const latencyMax = niceMax(Math.max(...server.minutes.map(minute => minute.p95Ms ?? 0)));
  const counts = scale(from, now, countMax);
  const latency = scale(from, now, latencyMax);
  const barWidth = Math.max(2, (W - PAD.left - PAD.right) / 60 - 1);
  const key = `server-${server.name.replace(/[^\w-]/g, '_')}`;
  return html`<article class="chart-card" data-chart-server=${server.name} aria-labelledby=${`${key}-title`}>
    <h3 id=${`${key}-title`}>${server.name}</h3>
    <${Frame}
      id=${`${key}-calls`}
      summary=${`${server.name}: ${calls} calls and ${errors} errors in the last hour, by minute`}
      from=${from}
      to=${now}
      max=${countMax}
      unit="calls"
    >
      <g aria-hidden="true">
        ${server.minutes.map(
          minute =>
            html`<rect
                x=${counts.x(minute.t)}
                y=${counts.y(minute.calls)}
                width=${barWidth}
                height=${H - PAD.bottom - counts.y(minute.calls)}
                fill=${COLOURS.calls}
              /><rect
                x=${counts.x(minute.t)}
                y=${counts.y(minute.errors)}
                width=${barWidth}
                height=${H - PAD.bottom - counts.y(minute.errors)}
                fill=${COLOURS.errors}
              />`,
        )}
      </g>
    <//>
    <${Legend}
      items=${[
        ['calls per minute', COLOURS.calls],
        ['errors', COLOURS.errors],
      ]}
    />
    <${Frame}
      id=${`${key}-latency`}
      summary=${`${server.name}: latency by minute, latest p50 ${ms(latest?.p50Ms)} and p95 ${ms(latest?.p95Ms)}`}
      from=${from}
      to=${now}
      max=${latencyMax}
      unit="ms"
    >
      <${Line}
        points=${server.minutes.map(m => ({ t: m.t, v: m.p50Ms }))}
        at=${latency}
        colour=${COLOURS.p50}
        label="p50"
      />
      <${Line}
        points=${server.minutes.map(m => ({ t: m.t, v: m.p95Ms }))}
        at=${latency}
        colour=${COLOURS.p95}
        label="p95"
      />
    <//>
    <${Legend}
      items=${[
        ['p50', COLOURS.p50],
        ['p95', COLOURS.p95],
      ]}
    />
    <details>
      <summary>${server.name} by minute, as a table</summary>
      <table>
        <caption class="sub">
          Calls, errors and latency of ${server.name}, each minute with calls
        </caption>
        <thead>
          <tr>
            <th scope="col">minute</th>
            <th scope="col">calls</th>
            <th scope="col">errors</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
          </tr>
        </thead>
        <tbody>
          ${server.minutes.map(
            minute =>
              html`<tr key=${minute.t}>
                <td>${clock(minute.t)}</td>
                <td>${minute.calls}</td>
                <td>${minute.errors}</td>
                <td>${ms(minute.p50Ms)}</td>
                <td>${ms(minute.p95Ms)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </article>`;
}

function ProcessCharts({ series, now }) {
  const points = series.points;
  const from = Math.min(points[0]?.t ?? now, now - 60_000);
  const cpuMax = niceMax(Math.max(...points.map(point => point.cpuPct ?? 0)));
  const memMax = niceMax(Math.max(...points.map(point => point.rssBytes)) / 1024 / 1024);
  const latest = points.at(-1);
  const key = `process-${series.id.replace(/[^\w-]/g, '_')}`;
  return html`<article class="chart-card" data-chart-process=${series.name} aria-labelledby=${`${key}-title`}>
    <h3 id=${`${key}-title`}>${series.name} <span class="sub">${series.id}</span></h3>
    <${Frame}
      id=${`${key}-cpu`}
      summary=${`${series.name}: CPU over time, now ${latest?.cpuPct ?? '—'} % of one core`}
      from=${from}
      to=${now}
      max=${cpuMax}
      unit="%"
    >
      <${Line}
        points=${points.map(p => ({ t: p.t, v: p.cpuPct }))}
        at=${scale(from, now, cpuMax)}
        colour=${COLOURS.cpu}
        label="cpu"
      />
    <//>
    <${Frame}
      id=${`${key}-mem`}
      summary=${`${series.name}: memory over time, now ${bytes(latest?.rssBytes)}`}
      from=${from}
      to=${now}
      max=${memMax}
      unit="MiB"
    >
      <${Line}
        points=${points.map(p => ({ t: p.t, v: p.rssBytes / 1024 / 1024 }))}
        at=${scale(from, now, memMax)}
        colour=${COLOURS.mem}
        label="memory"
      />
    <//>
    <details>
      <summary>${series.name} over time, as a table</summary>
      <table>
        <caption class="sub">
          CPU (% of one core) and resident memory of ${series.name}
        </caption>
        <thead>
          <tr>
            <th scope="col">time</th>
            <th scope="col">CPU</th>
            <th scope="col">memory</th>
          </tr>
        </thead>
        <tbody>
          ${points.map(
            point =>
              html`<tr key=${point.t}>
                <td>${new Date(point.t).toTimeString().slice(0, 8)}</td>
                <td>${point.cpuPct === null ? '—' : `${point.cpuPct} %`}</td>
                <td>${bytes(point.rssBytes)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </article>`;
}

export function ChartsView() {
  const [charts, setCharts] = useState(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let gone = false;
    const load = () =>
      api('charts').then(
        data => !gone && (setCharts(data), setError('')),
        failure => !gone && setError(failure.message),
      );
    void load();
    const timer = setInterval(load, POLL_MS);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, []);
  if (!charts) return error ? html`<p class="error" role="alert">${error}</p>` : html`<p>Loading…</p>`;
  return html`<section aria-labelledby="charts-servers">
      <h2 id="charts-servers">Calls per server, last hour</h2>
      ${
        charts.servers.length === 0
          ? html`<p class="sub">No proxied calls through this hub in the last hour.</p>`
          : charts.servers.map(
              server => html`<${ServerCharts} key=${server.name} server=${server} now=${charts.now} />`,
            )
      }
    </section>
    <section aria-labelledby="charts-processes">
      <h2 id="charts-processes">Processes: CPU and memory</h2>
      <p class="sub">Sampled every 2 s while a dashboard page is open, kept for an hour.</p>
      ${
        charts.processes.length === 0
          ? html`<p class="sub">No running process sampled yet.</p>`
          : charts.processes.map(
              series => html`<${ProcessCharts} key=${series.id} series=${series} now=${charts.now} />`,
            )
      }
    </section>`;
}
