// The hub dashboard: Preact + htm (no build step for templates, ~5 KB gzipped together), bundled
// by esbuild into dist/web at build time. State comes over server-sent events (/api/events), after
// the tab logs in (session.js).
import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { listen } from './api.js';
import { logIn } from './session.js';
import { ProcessesView } from './processes.js';
import { ServersView } from './servers.js';
import { ChartsView } from './charts.js';
import { StoreView } from './store.js';
import { AuditView } from './audit.js';

const TABS = [
  ['processes', 'Processes'],
  ['servers', 'MCP servers'],
  ['charts', 'Charts'],
  ['store', 'Store'],
  ['audit', 'Audit log'],
];

function App() {
  const [state, setState] = useState(undefined);
  const [online, setOnline] = useState(false);
  const [tab, setTab] = useState(location.hash.slice(1) || 'processes');
  const [selected, setSelected] = useState(undefined);
  const [logTick, setLogTick] = useState({});
  const [installs, setInstalls] = useState([]);
  const [notice, setNotice] = useState(undefined);
  const [refused, setRefused] = useState(undefined);

  const report = (text, error = false) => setNotice({ text, error });
  const onEvent = (event, data) => {
    if (event === 'state') setState(data);
    else if (event === 'log') setLogTick(ticks => ({ ...ticks, [data.id]: (ticks[data.id] ?? 0) + 1 }));
    else if (event === 'install')
      setInstalls(jobs => {
        const job = jobs.find(entry => entry.job === data.job) ?? { job: data.job, messages: [] };
        const message =
          data.kind === 'progress'
            ? data.message
            : data.kind === 'done'
              ? `Installed ${data.name} ${data.version ?? ''}: ${data.state}, ${data.tools} tools.`
              : data.kind === 'failed'
                ? `Install failed: ${data.error}`
                : 'Waiting for your approval:';
        const next = {
          ...job,
          messages: [...job.messages, message],
          consent: data.kind === 'consent' ? data.text : undefined,
        };
        return [...jobs.filter(entry => entry.job !== data.job), next];
      });
  };
  useEffect(() => {
    let stop = () => undefined;
    let gone = false;
    void logIn().then(problem => {
      if (problem !== undefined) return setRefused(problem);
      if (!gone) stop = listen(onEvent, open => (typeof open === 'string' ? setRefused(open) : setOnline(open)));
    });
    return () => {
      gone = true;
      stop();
    };
  }, []);
  useEffect(() => {
    location.hash = tab;
  }, [tab]);

  const onKey = (event, index) => {
    const move = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (move === 0) return;
    const next = TABS[(index + move + TABS.length) % TABS.length][0];
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };

  return html`<header>
      <h1>hub</h1>
      <nav role="tablist" aria-label="Views">
        ${TABS.map(
          ([key, label], index) =>
            html`<button
              role="tab"
              id=${`tab-${key}`}
              aria-selected=${tab === key}
              tabindex=${tab === key ? 0 : -1}
              onClick=${() => setTab(key)}
              onKeyDown=${event => onKey(event, index)}
            >
              ${label}${state && key === 'processes' ? ` (${state.processes.filter(p => p.status === 'running').length})` : ''}${state && key === 'servers' ? ` (${state.servers.length})` : ''}
            </button>`,
        )}
      </nav>
      <span class=${`live ${online ? 'on' : 'off'}`} role="status">${online ? 'live' : 'reconnecting…'}</span>
    </header>
    ${
      notice &&
      html`<p class=${`notice ${notice.error ? 'error' : ''}`} role=${notice.error ? 'alert' : 'status'}>
        ${notice.text} <button class="link" onClick=${() => setNotice(undefined)} aria-label="Dismiss">×</button>
      </p>`
    }
    <main role="tabpanel" aria-labelledby=${`tab-${tab}`}>
      ${
        refused
          ? html`<p class="notice error" role="alert">${refused}</p>`
          : !state
            ? html`<p>Loading…</p>`
            : tab === 'processes'
              ? html`<${ProcessesView}
                  processes=${state.processes}
                  selected=${selected}
                  select=${setSelected}
                  logTick=${logTick}
                  report=${report}
                />`
              : tab === 'servers'
                ? html`<${ServersView}
                    servers=${state.servers}
                    next=${state.serversNext}
                    installs=${installs}
                    report=${report}
                  />`
                : tab === 'charts'
                  ? html`<${ChartsView} />`
                  : tab === 'audit'
                    ? html`<${AuditView} report=${report} />`
                    : html`<${StoreView} store=${state.store} hubs=${state.hubs} sessions=${state.sessions} />`
      }
    </main>`;
}

render(html`<${App} />`, document.getElementById('app'));
