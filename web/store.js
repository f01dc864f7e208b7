// The dashboard's Store view: the store lock's waits, the hubs and the sessions attached.
import { html } from 'htm/preact';
import { ago, bytes } from './api.js';

function lockText(lock) {
  const waits =
    lock.waited > 0
      ? `, ${lock.totalWaitMs} ms in all, longest ${lock.longestWaitMs} ms, last ${ago(lock.lastWaitAt)} ago`
      : '';
  const broken = lock.brokenStale > 0 ? `; ${lock.brokenStale} stale locks broken` : '';
  return `${lock.waited} of ${lock.taken} changes waited for another hub${waits}${broken}`;
}

export function StoreView({ store, hubs, sessions }) {
  return html`<section aria-labelledby="store-title">
    <h2 id="store-title">Store</h2>
    ${store.warning && html`<p class="error" role="alert">${store.warning}</p>`}
    <dl class="facts">
      <dt>HUB_HOME</dt>
      <dd><code>${store.home}</code></dd>
      <dt>db.json</dt>
      <dd><code>${store.path}</code>, ${bytes(store.sizeBytes)}, changed ${ago(store.modifiedAt)} ago</dd>
      <dt>Recovered / quarantined</dt>
      <dd>
        ${store.quarantined.length === 0 ? 'none' : store.quarantined.map(file => html`<div><code>${file}</code></div>`)}
      </dd>
      <dt>Lock waits (this hub)</dt>
      <dd data-lock>${lockText(store.lock)}</dd>
      <dt>Hubs running servers</dt>
      <dd>${hubs.length === 0 ? 'none' : hubs.map(pid => `pid ${pid}`).join(', ')}</dd>
      <dt>Sessions</dt>
      <dd>
        ${
          sessions === null
            ? 'this dashboard runs on its own (hub-mcp ui --foreground); no sessions attached to it'
            : sessions.length === 0
              ? 'none'
              : sessions.map(
                  session =>
                    html`<div class="session">
                      <strong>${session.client ?? session.id}</strong> over ${session.transport ?? '?'}
                      ${session.startedAt ? `, for ${ago(session.startedAt)}` : ''}
                      ${session.cwd ? html`, in <code>${session.cwd}</code>` : ''}
                    </div>`,
                )
        }
      </dd>
    </dl>
  </section>`;
}
