import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolReply } from '../wire/caller.js';
import { claimedVersion } from '../wire/era.js';
import type { FastCallOptions } from '../wire/fast-calls.js';
import { RpcError } from '../wire/rpc-error.js';
import type { ClientSide } from './client-side.js';
import { isInputRequired, playInputRounds } from './input-required.js';
import type { EraChildTransport } from './modern-child.js';

/** A 2026-07-28 child as its calls need it: its transport (the envelope) and the client that answers its input requests. */
export interface ModernChild {
  readonly eras: EraChildTransport;
  readonly upstream: ClientSide;
  readonly server: string;
}

const AnyResultSchema = z.looseObject({});

/**
 * tools/call to a 2026-07-28 child: its envelope added, and its input_required answered through a
 * 2025 client (input-required.ts). A 2026-07-28 client gets input_required as it is and retries
 * itself (its inputResponses come back through the fast path).
 */
export async function modernToolCall<R extends ToolReply>(
  child: ModernChild,
  options: FastCallOptions,
  call: (options: FastCallOptions) => Promise<R>,
): Promise<R | CallToolResult> {
  const enveloped = { ...options, meta: child.eras.callMeta(options.meta, child.upstream.capabilities()) };
  const first = await call(enveloped);
  if (!isInputRequired(first) || claimedVersion(options.meta) !== undefined) return first;
  return playInputRounds<R | CallToolResult>(first, {
    server: child.server,
    upstream: child.upstream,
    relatedRequestId: options.relatedRequestId,
    cancellable: options.cancellable,
    retry: retry => call({ ...enveloped, params: { ...enveloped.params, ...retry } }),
    fail: message => ({ isError: true, content: [{ type: 'text', text: message }] }),
  });
}

/**
 * prompts/get or resources/read of a 2026-07-28 child through hub's SDK Client: read loosely
 * first (an input_required answer has none of the result's fields), its input asked of the client.
 */
export async function modernRequest<T extends z.ZodType>(
  child: ModernChild,
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: T,
  options: RequestOptions,
): Promise<z.infer<T>> {
  const ask = (params: Record<string, unknown> | undefined) =>
    client.request({ method: request.method, params } as never, AnyResultSchema, options) as Promise<unknown>;
  const result = await playInputRounds(await ask(request.params), {
    server: child.server,
    upstream: child.upstream,
    cancellable: cancel => options.signal?.addEventListener('abort', () => cancel('cancelled'), { once: true }),
    retry: retry => ask({ ...request.params, ...retry }),
    fail: message => {
      throw new RpcError(ErrorCode.InternalError, message);
    },
  });
  return schema.parse(result) as z.infer<T>;
}
