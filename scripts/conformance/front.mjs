// The conformance suite's server scenarios call the everything-server's tools and prompts by their
// own names (`test_simple_text`); hub lists them as `<server>_<tool>`. This front, on 127.0.0.1,
// renames only those: requests get the prefix, lists lose hub's own entries and the prefix. Every
// other byte (Host, Origin, session ids, SSE streams, server-to-client requests) passes as it is,
// so what the suite checks is hub's answer, not the front's.
import { createServer, request } from 'node:http';

/** Adds the prefix to the names a client sends. */
function renameRequest(message, prefix) {
  const params = message?.params;
  if (!params) return;
  if ((message.method === 'tools/call' || message.method === 'prompts/get') && typeof params.name === 'string') {
    params.name = prefix + params.name;
  }
  if (message.method === 'completion/complete' && params.ref?.type === 'ref/prompt') {
    params.ref.name = prefix + params.ref.name;
  }
}

/** Keeps only the server's tools and prompts in a list, under their own names. */
function renameAnswer(message, prefix) {
  const result = message?.result;
  if (!result) return;
  for (const key of ['tools', 'prompts']) {
    if (!Array.isArray(result[key])) continue;
    result[key] = result[key]
      .filter(item => typeof item.name === 'string' && item.name.startsWith(prefix))
      .map(item => ({ ...item, name: item.name.slice(prefix.length) }));
  }
}

const each = (body, rename) => (Array.isArray(body) ? body.forEach(rename) : rename(body));

function rewriteJson(text, rename) {
  try {
    const body = JSON.parse(text);
    each(body, rename);
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

// An SSE stream, event by event: only `data:` lines that hold JSON change.
function sseRewriter(rename, write) {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk;
      let end;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        write((line.startsWith('data: ') ? `data: ${rewriteJson(line.slice(6), rename)}` : line) + '\n');
      }
    },
    flush() {
      if (pending) write(pending);
    },
  };
}

/**
 * Starts the front for `target` (hub's /mcp URL) with the bearer token; resolves to its URL.
 * `prefix` is the server's name and hub's separator (`ev_`).
 */
export async function startFront({ target, token, prefix }) {
  const hub = new URL(target);
  const ownPort = () => server.address().port;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (body.length > 0 && /json/.test(req.headers['content-type'] ?? '')) {
        body = Buffer.from(rewriteJson(body.toString('utf8'), message => renameRequest(message, prefix)));
      }
      const headers = { ...req.headers, authorization: `Bearer ${token}` };
      // The suite names the front's port in Host and Origin; a client of hub would name hub's.
      for (const key of ['host', 'origin']) {
        if (typeof headers[key] === 'string') headers[key] = headers[key].replace(`:${ownPort()}`, `:${hub.port}`);
      }
      if (body.length > 0) headers['content-length'] = String(body.length);
      const upstream = request(
        { host: hub.hostname, port: hub.port, path: hub.pathname, method: req.method, headers },
        answer => {
          const outHeaders = { ...answer.headers };
          const type = String(answer.headers['content-type'] ?? '');
          const rename = message => renameAnswer(message, prefix);
          answer.setEncoding('utf8');
          if (type.startsWith('text/event-stream')) {
            res.writeHead(answer.statusCode ?? 502, outHeaders);
            res.flushHeaders();
            const sse = sseRewriter(rename, text => res.write(text));
            answer.on('data', chunk => sse.push(chunk));
            answer.on('end', () => {
              sse.flush();
              res.end();
            });
            return;
          }
          let text = '';
          answer.on('data', chunk => (text += chunk));
          answer.on('end', () => {
            const out = type.includes('json') ? rewriteJson(text, rename) : text;
            delete outHeaders['content-length'];
            res.writeHead(answer.statusCode ?? 502, outHeaders);
            res.end(out);
          });
        },
      );
      upstream.on('error', error => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`front: ${error.message}`);
      });
      // The suite closing its side (an abandoned call) closes hub's side too, as a direct client would.
      res.on('close', () => upstream.destroy());
      upstream.end(body.length > 0 ? body : undefined);
    });
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
