// The dashboard's JSON API (src/dashboard/api.ts). Every call carries the session key
// (session.js); the browser sends Origin with every POST, which the server checks too.
import { authHeaders, forget, NOT_LOGGED_IN } from './session.js';

export async function api(path, body) {
  const response = await fetch(`/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error ?? `HTTP ${response.status}`);
  return data;
}

const RETRY_MS = 1_000;

/**
 * Calls on(event, data) for each server-sent event of /api/events, read with fetch so the key
 * goes in a header (EventSource cannot send one). Reconnects after a dropped stream;
 * onOpen(true | false | text): open, reconnecting, or refused for good (the text says why).
 */
export function listen(on, onOpen) {
  let stopped = false;
  let controller;
  const dispatch = block => {
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0 && ['state', 'log', 'install'].includes(event)) on(event, JSON.parse(data.join('\n')));
  };
  const connect = async () => {
    while (!stopped) {
      controller = new AbortController();
      try {
        const response = await fetch('/api/events', { headers: authHeaders(), signal: controller.signal });
        if (response.status === 401) {
          forget();
          onOpen(NOT_LOGGED_IN);
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onOpen(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value; // hub's events end lines with \n only
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // A dropped stream or a hub restarting: try again below.
      }
      if (stopped) return;
      onOpen(false);
      await new Promise(resolve => setTimeout(resolve, RETRY_MS));
    }
  };
  void connect();
  return () => {
    stopped = true;
    controller?.abort();
  };
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
