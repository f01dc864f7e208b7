// What /mcp reads and refuses before a session sees it: bounded JSON bodies, JSON-RPC refusals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Refusal } from './guard.js';

// What the /mcp endpoint reads and refuses before a session sees anything: bounded JSON bodies,
// and JSON-RPC error answers at the HTTP layer.

/** A JSON-RPC error answer with no id (the spec's form for refusals at the HTTP layer). */
export function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

export const answer = (res: ServerResponse, refusal: Refusal) =>
  refuse(res, refusal.status, -32000, refusal.message, refusal.headers);

export type Body = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

// The body, bounded: a declared or actual size over the limit stops the read (413).
export function readJson(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise(resolve => {
    const declared = Number(req.headers['content-length']);
    const tooLarge = {
      ok: false,
      status: 413,
      code: -32600,
      message: `Payload too large: the body must not exceed ${limit} bytes.`,
    } as const;
    if (declared > limit) {
      req.resume();
      resolve(tooLarge);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () =>
      resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the body could not be read.' }),
    );
    req.on('end', () => {
      if (size > limit) return;
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON.' });
      }
    });
  });
}

export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();
