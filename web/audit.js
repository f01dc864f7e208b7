// The audit log (docs/audit.md): `hub audit`'s filters, the matching lines newest last, and a
// download of them as JSON lines (the export), fetched with the session key like every call.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';

const FIELDS = [
  ['since', 'Since', '2h, 7d or 2026-11-27T15:00'],
  ['until', 'Until', ''],
  ['server', 'Server', ''],
  ['tool', 'Tool', ''],
  ['session', 'Session', 's2'],
  ['process', 'Process', 'id or name'],
];
const KINDS = ['', 'call', 'process', 'install', 'uninstall', 'upgrade', 'configure', 'decision'];

const queryOf = (filters, all) => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value === true ? '1' : value);
  if (all) query.set('all', '1');
  return query.toString();
};

function what(entry) {
  if (entry.kind === 'call') return `${entry.server}.${entry.tool}`;
  if (entry.kind === 'process')
    return `${entry.action} ${entry.name ?? entry.process}${entry.command ? ` (${entry.command})` : ''}`;
  if (entry.kind === 'decision') return `${entry.answer}: ${String(entry.question ?? '').split('\n')[0]}`;
  return `${entry.server ?? ''}${entry.version ? `@${entry.version}` : ''}`;
}

export function AuditView({ report }) {
  const [filters, setFilters] = useState({});
  const [result, setResult] = useState(undefined);
  const load = async next => {
    try {
      setResult(await api(`audit?${queryOf(next, false)}`));
    } catch (error) {
      report(error.message, true);
    }
  };
  useEffect(() => void load(filters), []);
  const submit = event => {
    event.preventDefault();
    const form = new FormData(event.target);
    const next = Object.fromEntries(FIELDS.map(([key]) => [key, String(form.get(key) ?? '').trim()]));
    next.kind = String(form.get('kind') ?? '');
    next.decisions = form.get('decisions') === 'on';
    setFilters(next);
    void load(next);
  };
  const download = async () => {
    try {
      const { entries } = await api(`audit?${queryOf(filters, true)}`);
      const blob = new Blob(
        entries.map(entry => `${JSON.stringify(entry)}\n`),
        { type: 'application/x-ndjson' },
      );
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'hub-audit.jsonl';
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      report(error.message, true);
    }
  };
  const entries = result?.entries ?? [];
  return html`<section aria-labelledby="audit-title">
    <h2 id="audit-title">Audit log</h2>
    <form class="filter" onSubmit=${submit} aria-label="Filter the audit log">
      ${FIELDS.map(([key, label, hint]) => html`<label>${label} <input name=${key} placeholder=${hint} /></label>`)}
      <label
        >Kind
        <select name="kind">
          ${KINDS.map(kind => html`<option value=${kind}>${kind || 'any'}</option>`)}
        </select></label
      >
      <label class="check"><input type="checkbox" name="decisions" /> Decisions only</label>
      <button type="submit">Apply</button>
      <button type="button" onClick=${download}>Download JSON lines</button>
    </form>
    ${
      !result
        ? html`<p>Loading…</p>`
        : entries.length === 0
          ? html`<p role="status">Nothing in the audit log matches.</p>`
          : html`<p role="status">
                ${entries.length}
                line${entries.length === 1 ? '' : 's'}${result.limited ? ' (the newest; narrow the filters or download for all)' : ''}
              </p>
              <div class="scroll">
                <table class="audit">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Kind</th>
                      <th scope="col">By</th>
                      <th scope="col">Session</th>
                      <th scope="col">What</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Took</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${entries
                      .slice()
                      .reverse()
                      .map(
                        entry =>
                          html`<tr data-kind=${entry.kind} data-server=${entry.server ?? ''}>
                            <td>${new Date(entry.t).toLocaleString()}</td>
                            <td>${entry.kind}</td>
                            <td>${entry.by ?? ''}</td>
                            <td>${entry.session ?? ''}${entry.client ? ` ${entry.client}` : ''}</td>
                            <td>${what(entry)}</td>
                            <td>${entry.outcome ?? ''}${entry.code ? ` ${entry.code}` : ''}</td>
                            <td>${entry.ms === undefined ? '' : `${entry.ms} ms`}</td>
                          </tr>`,
                      )}
                  </tbody>
                </table>
              </div>`
    }
  </section>`;
}
