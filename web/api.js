// The dashboard's JSON API (src/dashboard/api.ts). The session cookie goes along by itself;
// the browser sends Origin with every POST, which the server checks.
export async function api(path, body) {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

/** Calls on(event, data) for each server-sent event; the browser reconnects by itself. */
export function listen(on, onOpen) {
  const source = new EventSource('/api/events');
  for (const event of ['state', 'log', 'install'])
    source.addEventListener(event, message => on(event, JSON.parse(message.data)));
  source.onopen = () => onOpen(true);
  source.onerror = () => onOpen(false);
  return () => source.close();
}

export function ago(iso) {
  if (!iso) return '';
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86400)}d`;
}

export function bytes(size) {
  if (size === null || size === undefined) return '—';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}
