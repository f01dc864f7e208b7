// The dashboard's Servers view: installed servers, their settings, tool review, installs.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { SandboxPanel } from './sandbox.js';

const ms = value => (value === null || value === undefined ? '—' : `${Math.round(value)} ms`);
const list = text =>
  text
    .split(',')
    .map(word => word.trim())
    .filter(Boolean);

function Details({ name, report }) {
  const [info, setInfo] = useState(undefined);
  const [log, setLog] = useState(undefined);
  const [error, setError] = useState('');
  const load = () =>
    Promise.all([api(`servers/${encodeURIComponent(name)}`), api(`servers/${encodeURIComponent(name)}/log`)]).then(
      ([described, logged]) => {
        setInfo(described);
        setLog(logged);
      },
      failure => setError(failure.message),
    );
  useEffect(() => void load(), [name]);
  const saveFilter = async event => {
    event.preventDefault();
    const form = new FormData(event.target);
    try {
      await api(`servers/${encodeURIComponent(name)}/configure`, {
        tools: { allow: list(String(form.get('allow'))), deny: list(String(form.get('deny'))) },
      });
      report(`${name}: tool filter saved.`);
      load();
    } catch (failure) {
      report(failure.message, true);
    }
  };
  if (error) return html`<p class="error">${error}</p>`;
  if (!info) return html`<p>Loading…</p>`;
  return html`<div class="details">
    ${info.summary.lastError && html`<p class="error">Last error: ${info.summary.lastError}</p>`}
    <form class="filter" onSubmit=${saveFilter}>
      <label>Allow tools (comma-separated, empty: all) <input name="allow" /></label>
      <label>Deny tools <input name="deny" /></label>
      <button type="submit">Save filter</button>
    </form>
    <${SandboxPanel} name=${name} sandbox=${info.sandbox} report=${report} reload=${load} />
    <${Review} name=${name} integrity=${info.integrity} />
    <h4>Tools (${info.tools.length})</h4>
    <ul class="tools">
      ${info.tools.map(
        tool =>
          html`<li key=${tool.tool} data-tool=${tool.tool}>
            <details>
              <summary>
                <code>${tool.exposedName ?? tool.tool}</code>
                ${tool.withheld ? html` <span class="badge failed">withheld: changed, not approved</span>` : ''}
                ${tool.flagged ? html` <span class="badge degraded">changed, not approved</span>` : ''}
                ${tool.withheld ? '' : ` ${tool.description ?? ''}`}
              </summary>
              <pre>${JSON.stringify(tool.inputSchema, null, 2)}</pre>
            </details>
          </li>`,
      )}
    </ul>
    <h4>stderr log <span class="sub">${log?.logFile}</span></h4>
    <pre class="lines">${(log?.lines ?? []).join('\n') || '(empty)'}</pre>
  </div>`;
}

// Changed tools waiting for the person: the approved text beside the new one, with the markers
// hub found; approving stays a deliberate act (`hub servers approve`), as the page says.
function Review({ name, integrity }) {
  const changed = integrity?.changed ?? [];
  if (changed.length === 0) return '';
  return html`<div class="review" role="region" aria-label="Changed tools awaiting approval">
    <h4>Changed tools awaiting approval (${changed.length})</h4>
    ${changed.map(
      change =>
        html`<div class="change" key=${change.tool} data-change=${change.tool}>
          <div>
            <code>${change.tool}</code> <span class="badge failed">${change.action}</span>
            ${change.status === 'new' ? 'new since approval' : 'changed since approval'}
          </div>
          <table class="side-by-side">
            <thead>
              <tr>
                <th scope="col">Approved</th>
                <th scope="col">New (not approved)</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td data-was>${change.was ? change.was.description : '(none approved)'}</td>
                <td data-now>${change.now?.description ?? ''}</td>
              </tr>
              <tr>
                <td>params: ${change.was ? change.was.params.join(', ') : ''}</td>
                <td>params: ${change.now?.params.join(', ') ?? ''}</td>
              </tr>
            </tbody>
          </table>
          ${
            change.markers &&
            html`<ul class="markers" aria-label="Possible prompt injection">
              ${change.markers.map(marker => html`<li key=${marker}>possible prompt injection: ${marker}</li>`)}
            </ul>`
          }
        </div>`,
    )}
    <p class="sub">Approve after review in a terminal: <code>hub-mcp servers approve ${name}</code></p>
  </div>`;
}

function Install({ installs, report }) {
  const [query, setQuery] = useState('');
  const [results, setResults] = useState(undefined);
  const [busy, setBusy] = useState(false);
  const search = async event => {
    event.preventDefault();
    setBusy(true);
    try {
      setResults((await api(`search?q=${encodeURIComponent(query)}`)).results);
    } catch (error) {
      report(error.message, true);
    } finally {
      setBusy(false);
    }
  };
  const install = async body => {
    try {
      await api('install', body);
      report(`Installing ${body.package ?? body.command}…`);
    } catch (error) {
      report(error.message, true);
    }
  };
  const installForm = event => {
    event.preventDefault();
    const form = new FormData(event.target);
    const spec = String(form.get('package')).trim();
    if (spec) install({ package: spec });
  };
  const answer = (job, approve) =>
    api(`install/${job}/consent`, { approve }).catch(error => report(error.message, true));
  return html`<details class="panel" open=${installs.length > 0}>
    <summary>Find and install a server</summary>
    <form class="inline" onSubmit=${search}>
      <label
        >Search registries <input type="search" value=${query} onInput=${event => setQuery(event.target.value)}
      /></label>
      <button type="submit" disabled=${busy}>Search</button>
    </form>
    <form class="inline" onSubmit=${installForm}>
      <label>npm package <input name="package" placeholder="@modelcontextprotocol/server-memory" /></label>
      <button type="submit">Install</button>
    </form>
    ${
      results &&
      html`<ul class="results">
        ${results.length === 0 && html`<li>Nothing found.</li>`}
        ${results.map(
          result =>
            html`<li key=${result.package ?? result.name}>
              <strong>${result.name ?? result.package}</strong> <span class="sub">${result.package ?? ''}</span>
              ${result.installed ? html` <span class="badge ready">installed</span>` : ''}
              <div>${result.description ?? ''}</div>
              ${
                result.package &&
                !result.installed &&
                html`<button onClick=${() => install({ package: result.package })}>Install ${result.package}</button>`
              }
            </li>`,
        )}
      </ul>`
    }
    ${installs.map(
      job =>
        html`<div class="install" key=${job.job} role="status">
          ${job.messages.map(message => html`<div>${message}</div>`)}
          ${
            job.consent &&
            html`<div class="consent" role="alertdialog" aria-label="Approve install">
              <pre>${job.consent}</pre>
              <button onClick=${() => answer(job.job, true)}>Approve</button>
              <button onClick=${() => answer(job.job, false)}>Decline</button>
            </div>`
          }
        </div>`,
    )}
  </details>`;
}

export function ServersView({ servers, next, installs, report }) {
  const [open, setOpen] = useState(undefined);
  const act = async (server, action, body = {}) => {
    try {
      await api(`servers/${encodeURIComponent(server.name)}/${action}`, body);
      report(`${server.name}: ${action} done.`);
    } catch (error) {
      report(error.message, true);
    }
  };
  return html`<section aria-labelledby="servers-title">
    <h2 id="servers-title">MCP servers</h2>
    <${Install} installs=${installs} report=${report} />
    ${
      servers.length === 0
        ? html`<p class="empty">${next}</p>`
        : html`<div class="scroll">
            <table class="servers">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Version</th>
                  <th scope="col">Tools</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Errors</th>
                  <th scope="col">p50</th>
                  <th scope="col">p95</th>
                  <th scope="col">Restarts</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${servers.map(
                  server =>
                    html`<tr key=${server.name} data-server=${server.name}>
                        <td>
                          <button
                            class="link"
                            aria-expanded=${open === server.name}
                            onClick=${() => setOpen(open === server.name ? undefined : server.name)}
                          >
                            ${server.name}
                          </button>
                          ${server.lastError && html`<div class="sub error" title=${server.lastError}>${server.lastError}</div>`}
                          ${server.missingEnv && html`<div class="sub">missing env: ${server.missingEnv.join(', ')}</div>`}
                          ${server.unsandboxed && html`<div><span class="badge failed">unsandboxed</span></div>`}
                        </td>
                        <td>
                          <span class=${`badge ${server.disabled ? 'disabled' : server.state}`}
                            >${server.disabled ? 'disabled' : server.state}</span
                          >
                        </td>
                        <td>${server.kind}</td>
                        <td>${server.version ?? '—'}</td>
                        <td>${server.tools.length}</td>
                        <td data-calls>${server.calls}</td>
                        <td>${server.errors}</td>
                        <td title=${`mean ${ms(server.meanMs)}`}>${ms(server.p50Ms)}</td>
                        <td>${ms(server.p95Ms)}</td>
                        <td>${server.restarts}</td>
                        <td class="actions">
                          ${
                            server.state === 'ready'
                              ? html`<button onClick=${() => act(server, 'stop')}>Stop</button>`
                              : html`<button onClick=${() => act(server, 'start')} disabled=${server.disabled}>
                                  Start
                                </button>`
                          }
                          <button onClick=${() => act(server, 'configure', { enabled: server.disabled === true })}>
                            ${server.disabled ? 'Enable' : 'Disable'}
                          </button>
                          ${server.kind === 'npm' && html`<button onClick=${() => act(server, 'upgrade')}>Upgrade</button>`}
                          <button
                            onClick=${() => window.confirm(`Uninstall ${server.name}?`) && act(server, 'uninstall')}
                          >
                            Uninstall
                          </button>
                        </td>
                      </tr>
                      ${
                        open === server.name &&
                        html`<tr class="expanded">
                          <td colspan="11"><${Details} name=${server.name} report=${report} /></td>
                        </tr>`
                      }`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}
