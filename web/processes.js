// The dashboard's Processes view: the list, starting one, a live log, typing into a process.
import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ago, api } from './api.js';
import { ansiSpans, plain } from './ansi.js';

const MAX_LINES = 5000;

function Ports({ ports }) {
  if (ports.length === 0) return '—';
  return ports.map(
    (port, index) =>
      html`${index > 0 ? ' ' : ''}<a href=${`http://localhost:${port}`} target="_blank" rel="noopener noreferrer"
          >:${port}</a
        >`,
  );
}

function exitText(view) {
  if (view.status === 'running') return '—';
  const code = view.exitCode === undefined || view.exitCode === null ? '?' : String(view.exitCode);
  return `${code}${view.signal ? ` ${view.signal}` : ''}`;
}

function StartForm({ onDone, report }) {
  const [busy, setBusy] = useState(false);
  const submit = async event => {
    event.preventDefault();
    const form = new FormData(event.target);
    const env = {};
    for (const line of String(form.get('env') ?? '').split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) env[line.slice(0, at).trim()] = line.slice(at + 1);
    }
    const body = { command: String(form.get('command')), tty: form.get('tty') === 'on' };
    if (form.get('name')) body.name = String(form.get('name'));
    if (form.get('cwd')) body.cwd = String(form.get('cwd'));
    if (Object.keys(env).length > 0) body.env = env;
    setBusy(true);
    try {
      const started = await api('processes', body);
      report(`Started ${started.process.name ?? started.process.id} (${started.process.status}).`);
      event.target.reset();
      onDone(started.process.id);
    } catch (error) {
      report(error.message, true);
    } finally {
      setBusy(false);
    }
  };
  return html`<details class="panel">
    <summary>Start a process</summary>
    <form class="start" onSubmit=${submit}>
      <label>Command <input name="command" required placeholder="npm run dev" /></label>
      <label>Name <input name="name" placeholder="web" /></label>
      <label>Working directory <input name="cwd" placeholder="(hub's)" /></label>
      <label
        >Environment (KEY=VALUE per line; values are never shown back)
        <textarea name="env" rows="2"></textarea>
      </label>
      <label class="check"><input type="checkbox" name="tty" /> Run in a terminal (tty)</label>
      <button type="submit" disabled=${busy}>Start</button>
    </form>
  </details>`;
}

export function ProcessesView({ processes, selected, select, logTick, report }) {
  const act = async (view, action) => {
    try {
      await api(`processes/${encodeURIComponent(view.id)}/${action}`, {});
      report(`${action} ${view.name ?? view.id}: done.`);
      if (action === 'remove' && selected === view.id) select(undefined);
    } catch (error) {
      report(error.message, true);
    }
  };
  const current = processes.find(view => view.id === selected);
  return html`<section aria-labelledby="processes-title">
    <h2 id="processes-title">Processes</h2>
    <${StartForm} onDone=${select} report=${report} />
    ${
      processes.length === 0
        ? html`<p class="empty">No processes. Start one above, or with start_process from an agent.</p>`
        : html`<div class="scroll">
            <table class="processes">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Ports</th>
                  <th scope="col">Up</th>
                  <th scope="col">Restarts</th>
                  <th scope="col">Exit</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                ${processes.map(
                  view =>
                    html`<tr
                      key=${view.id}
                      data-process=${view.name ?? view.id}
                      class=${view.id === selected ? 'selected' : ''}
                    >
                      <td>
                        <button
                          class="link"
                          onClick=${() => select(view.id)}
                          aria-label=${`Show the log of ${view.name ?? view.id}`}
                        >
                          ${view.name ?? view.id}
                        </button>
                        <div class="sub" title=${[view.command, ...(view.args ?? [])].join(' ')}>
                          ${view.id} · ${[view.command, ...(view.args ?? [])].join(' ')}
                        </div>
                      </td>
                      <td><span class=${`badge ${view.status}`}>${view.status}</span></td>
                      <td><${Ports} ports=${view.ports} /></td>
                      <td>${view.status === 'running' ? ago(view.startedAt) : '—'}</td>
                      <td>${view.restarts ?? 0}</td>
                      <td>${exitText(view)}</td>
                      <td>${view.tags.join(', ') || '—'}</td>
                      <td class="actions">
                        ${
                          view.status === 'running' &&
                          html`<button onClick=${() => act(view, 'kill')} aria-label=${`Kill ${view.name ?? view.id}`}>
                            Kill
                          </button>`
                        }
                        <button onClick=${() => act(view, 'restart')} aria-label=${`Restart ${view.name ?? view.id}`}>
                          Restart
                        </button>
                        ${
                          view.status !== 'running' &&
                          html`<button
                            onClick=${() => act(view, 'remove')}
                            aria-label=${`Remove ${view.name ?? view.id}`}
                          >
                            Remove
                          </button>`
                        }
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${current && html`<${LogView} key=${current.id} view=${current} logTick=${logTick} />`}
  </section>`;
}

function Line({ line }) {
  return html`<div class="line">
    ${ansiSpans(line).map(span => html`<span class=${span.className}>${span.text}</span>`)}
  </div>`;
}

// A live log: the last lines, then only newer ones with get_process_logs' cursor (next_cursor back
// as cursor), fetched when the server says the log grew. Paused: nothing is fetched or scrolled.
function LogView({ view, logTick }) {
  const [lines, setLines] = useState([]);
  const [follow, setFollow] = useState(true);
  const [search, setSearch] = useState('');
  const [screen, setScreen] = useState(undefined);
  const [note, setNote] = useState('');
  const cursor = useRef(undefined);
  const box = useRef(undefined);
  const id = encodeURIComponent(view.id);

  // Reads run one after another, each from the cursor the last one returned: never a line twice.
  const queue = useRef(Promise.resolve());
  const read = () => (queue.current = queue.current.then(readNext));
  const readNext = async () => {
    const query = cursor.current === undefined ? 'lines=500' : `cursor=${cursor.current}&lines=2000`;
    const slice = await api(`processes/${id}/logs?${query}`);
    cursor.current = slice.next_cursor;
    if (slice.cursor_reset) setNote('The log was truncated (over its cap): older lines are gone.');
    setLines(previous => [...(slice.cursor_reset ? [] : previous), ...slice.lines].slice(-MAX_LINES));
  };
  useEffect(() => {
    read().catch(error => setNote(error.message));
  }, []);
  useEffect(() => {
    if (follow && logTick[view.id]) read().catch(error => setNote(error.message));
  }, [logTick[view.id], follow]);
  useEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines, follow]);
  // The screen is read again whenever the log grows, not when its count of whole lines changes: a
  // prompt ("> ") ends without a newline, so it adds no line (and the screen missed it).
  useEffect(() => {
    if (!view.tty) return;
    api(`processes/${id}/screen`).then(
      answer => setScreen(answer.screen),
      () => setScreen(undefined),
    );
  }, [logTick[view.id], lines.length, view.tty]);

  const needle = search.toLowerCase();
  const shown = needle === '' ? lines : lines.filter(line => plain(line).toLowerCase().includes(needle));
  return html`<section class="panel log" aria-label=${`Log of ${view.name ?? view.id}`}>
    <div class="toolbar">
      <h3>Log: ${view.name ?? view.id}</h3>
      <label>Search <input type="search" value=${search} onInput=${event => setSearch(event.target.value)} /></label>
      <button aria-pressed=${follow} onClick=${() => setFollow(!follow)}>${follow ? 'Pause' : 'Follow'}</button>
      <span class="sub">${shown.length} of ${lines.length} lines${note ? ` · ${note}` : ''}</span>
    </div>
    ${screen && html`<pre class="screen" aria-label="Terminal screen">${(screen.lines ?? []).join('\n')}</pre>`}
    ${view.status === 'running' && html`<${InputBar} view=${view} onError=${setNote} />`}
    <div class="lines" ref=${box} tabindex="0" role="log" aria-live=${follow ? 'polite' : 'off'}>
      ${shown.map((line, index) => html`<${Line} key=${index} line=${line} />`)}
    </div>
  </section>`;
}

// Typing into a running process (send_input): a line with Enter, or one key; the answer shows up
// in the live log above.
const KEYS = [
  ['C-c', 'Ctrl-C'],
  ['C-d', 'Ctrl-D'],
  ['Tab', 'Tab'],
  ['Escape', 'Esc'],
  ['Up', 'Up'],
  ['Down', 'Down'],
];

function InputBar({ view, onError }) {
  const [text, setText] = useState('');
  const id = encodeURIComponent(view.id);
  const send = async body => {
    try {
      await api(`processes/${id}/input`, body);
      onError('');
    } catch (error) {
      onError(error.message);
    }
  };
  const submit = event => {
    event.preventDefault();
    void send({ text, keys: ['Enter'] });
    setText('');
  };
  const name = view.name ?? view.id;
  return html`<form class="toolbar input" onSubmit=${submit}>
    <label
      >Input to ${name}
      <input value=${text} onInput=${event => setText(event.target.value)} autocomplete="off" spellcheck="false" />
    </label>
    <button type="submit">Send line</button>
    ${(view.tty ? KEYS : KEYS.filter(([key]) => key !== 'C-d')).map(
      ([key, label]) =>
        html`<button type="button" key=${key} onClick=${() => send({ keys: [key] })} aria-label=${`Press ${label}`}>
          ${label}
        </button>`,
    )}
  </form>`;
}
