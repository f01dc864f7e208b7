// Calls and requests in the child's era: the 2026-07-28 envelope, or as-is to a 2025 child.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, type CallToolResult, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolReply } from '../../wire/caller.js';
import { claimedVersion } from '../../wire/era.js';
import type { FastCallOptions } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide } from '../sessions/client-side.js';
import { isInputRequired, playInputRounds } from './input-required.js';
import { EraChildTransport } from './modern.js';
import { declaresTasks, taskResultOf, withTasksExtension } from '../../wire/tasks-extension.js';
import { waitForChildTask } from './child-task-wait.js';
import type { ChildProcessTransport } from './transport.js';
import { HUB_VERSION } from '../../core/version.js';

/** A local child's era as its calls need it (a remote child has none: its transport negotiates): its transport (the envelope) and the client that answers its input requests. */
export interface ModernChild {
  readonly eras: EraChildTransport;
  readonly upstream: ClientSide;
  readonly server: string;
  /** hub's Client of the child: a task it answers with is followed through it (child-task-wait.ts). */
  readonly client?: Client | undefined;
}

const AnyResultSchema = z.looseObject({});

/**
 * A child's connection in either era (child/modern.ts): it is asked server/discover first, then
 * initialized (2025) or spoken to with the 2026-07-28 envelope; `upstream` answers its input requests.
 */
export function modernChild(
  transport: ChildProcessTransport,
  record: { name: string; command: string; args: readonly string[] },
  upstream: ClientSide,
  capabilities: ClientCapabilities,
  client?: Client,
): ModernChild {
  const clientInfo = { name: 'hub', version: HUB_VERSION };
  const eras = new EraChildTransport(transport, {
    command: record.command,
    args: record.args,
    // hub follows the tasks of the Tasks extension (tasks/get, tasks/update, tasks/cancel): it declares it.
    capabilities: withTasksExtension(capabilities),
    clientInfo,
  });
  return { eras, upstream, server: record.name, client };
}

/**
 * tools/call in the child's era: as it is to a 2025 child; to a 2026-07-28 child with its envelope
 * added, and its input_required answered through a 2025 client (input-required.ts). A 2026-07-28
 * client gets input_required as it is and retries itself (its inputResponses come back through
 * the fast path).
 */
export function eraToolCall<R extends ToolReply>(
  child: ModernChild | undefined,
  options: FastCallOptions,
  call: (options: FastCallOptions) => Promise<R>,
): Promise<R | CallToolResult> {
  return !child || child.eras.era === 'legacy' ? call(options) : modernToolCall(child, options, call);
}

async function modernToolCall<R extends ToolReply>(
  child: ModernChild,
  options: FastCallOptions,
  call: (options: FastCallOptions) => Promise<R>,
): Promise<R | CallToolResult> {
  const enveloped = { ...options, meta: child.eras.callMeta(options.meta, child.upstream.capabilities()) };
  const first = await call(enveloped);
  // A 2026-07-28 client gets input_required as it is, and a task when it declared the Tasks
  // extension (under hub's id, forwarding.ts); hub follows any other task for its caller.
  const modernCaller = claimedVersion(options.meta) !== undefined;
  if (modernCaller && declaresTasks(options.meta)) return first;
  const answered =
    !modernCaller && isInputRequired(first) ? await inputRounds(child, options, enveloped, call, first) : first;
  const task = child.client && taskResultOf(answered);
  if (!task || !child.client) return answered;
  return waitForChildTask(task, {
    server: child.server,
    client: child.client,
    upstream: child.upstream,
    relatedRequestId: options.relatedRequestId,
    cancellable: options.cancellable,
    timeoutMs: options.timeoutMs,
  });
}

function inputRounds<R extends ToolReply>(
  child: ModernChild,
  options: FastCallOptions,
  enveloped: FastCallOptions,
  call: (options: FastCallOptions) => Promise<R>,
  first: R,
): Promise<R | CallToolResult> {
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
 * A request through hub's SDK Client in the child's era: to a 2026-07-28 child (prompts/get,
 * resources/read…) read loosely first (an input_required answer has none of the result's
 * fields), its input asked of the client.
 */
export function eraRequest<T extends z.ZodType>(
  child: ModernChild | undefined,
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: T,
  given: RequestOptions & { session?: object },
): Promise<z.infer<T>> {
  const { session, ...options } = given;
  if (!child || child.eras.era === 'legacy')
    return client.request(request as never, schema, options) as Promise<z.infer<T>>;
  return modernRequest(child, client, request, schema, options, session);
}

async function modernRequest<T extends z.ZodType>(
  child: ModernChild,
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: T,
  options: RequestOptions,
  session: object | undefined,
): Promise<z.infer<T>> {
  const ask = (params: Record<string, unknown> | undefined) =>
    client.request({ method: request.method, params } as never, AnyResultSchema, options) as Promise<unknown>;
  const result = await playInputRounds(await ask(request.params), {
    server: child.server,
    upstream: child.upstream,
    session,
    cancellable: cancel => options.signal?.addEventListener('abort', () => cancel('cancelled'), { once: true }),
    retry: retry => ask({ ...request.params, ...retry }),
    fail: message => {
      throw new RpcError(ErrorCode.InternalError, message);
    },
  });
  return schema.parse(result) as z.infer<T>;
}
