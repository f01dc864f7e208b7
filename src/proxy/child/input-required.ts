// A 2026-07-28 child's input_required rounds, answered through a 2025 client for one call.
import type { CreateMessageRequest, ElicitRequest, ListRootsRequest } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../core/errors.js';
import { CallCancelledError } from '../../wire/fast-calls.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ClientSide } from '../sessions/client-side.js';
import { relayLabels } from './relay-labels.js';

type Json = Record<string, unknown>;

/** How many times a 2026-07-28 child may ask for input within one call before hub gives up. */
export const MAX_INPUT_ROUNDS = 8;
// A person answers elicitation and sampling: allow them time; the caller's cancel ends it sooner.
const RELAY_TIMEOUT_MS = 30 * 60_000;

/** A 2026-07-28 result that is not an answer yet: what the child needs first, and its state. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, { method?: unknown; params?: unknown }>;
  requestState?: string;
}

export const isInputRequired = (result: unknown): result is InputRequiredResult =>
  (result as { resultType?: unknown } | null)?.resultType === 'input_required';

/** What a retry adds to the request's params. */
export interface InputRetry {
  inputResponses: Json;
  requestState?: string;
}

export interface InputRounds<R> {
  readonly server: string;
  /** The 2025 client that answers (elicitation, sampling, roots), over the session that made the call. */
  readonly upstream: ClientSide;
  /** The caller's request id: relayed requests go out related to it (to that session's stream). */
  readonly relatedRequestId?: string | number | undefined;
  /** The session that made the request, when known: the questions go to it. */
  readonly session?: object | undefined;
  /** Hands over the abort for the relayed requests (the caller cancelled). */
  readonly cancellable?: ((cancel: (reason: string) => void) => void) | undefined;
  /** The same request again, with a new id and the answers. */
  retry(params: InputRetry): Promise<R>;
  /** What the caller gets when the rounds run out or the client cannot answer. */
  fail(message: string): R;
}

/**
 * A 2026-07-28 child's `input_required`, played out for a 2025 client: each input request goes to
 * the client as the request it names (elicitation/create, sampling/createMessage, roots/list,
 * labelled with the server's name as any relayed request), then the child's request is retried
 * with the answers and its requestState, until it answers for real or MAX_INPUT_ROUNDS pass.
 */
export async function playInputRounds<R>(first: R, rounds: InputRounds<R>): Promise<R> {
  let result = first;
  for (let round = 1; isInputRequired(result); round += 1) {
    if (round > MAX_INPUT_ROUNDS)
      return rounds.fail(
        `Server "${rounds.server}" still asked for input after ${MAX_INPUT_ROUNDS} rounds of answers; hub stopped the call there. Call it again, or answer differently.`,
      );
    const controller = new AbortController();
    rounds.cancellable?.(reason => controller.abort(reason));
    let inputResponses: Json;
    try {
      inputResponses = await answerInputs(result.inputRequests ?? {}, rounds, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw new CallCancelledError(String(controller.signal.reason ?? 'cancelled'));
      return rounds.fail(`Server "${rounds.server}" asked for input that hub could not get: ${errorMessage(error)}`);
    }
    const { requestState } = result;
    result = await rounds.retry({ inputResponses, ...(typeof requestState === 'string' && { requestState }) });
  }
  return result;
}

// One at a time: a person answers them, and two dialogs at once would be one too many.
export async function answerInputs(
  requests: InputRequiredResult['inputRequests'],
  rounds: Pick<InputRounds<unknown>, 'server' | 'upstream' | 'relatedRequestId' | 'session'>,
  signal: AbortSignal,
): Promise<Json> {
  const { upstream, server } = rounds;
  const labels = relayLabels(server, () => undefined);
  const options = {
    signal,
    timeout: RELAY_TIMEOUT_MS,
    ...(rounds.relatedRequestId !== undefined && { relatedRequestId: rounds.relatedRequestId }),
    ...(rounds.session !== undefined && { session: rounds.session }),
  };
  const answers: Json = {};
  for (const [key, request] of Object.entries(requests ?? {})) {
    const params = (request?.params ?? {}) as Json;
    switch (request?.method) {
      case 'elicitation/create':
        need(upstream, 'elicitation');
        answers[key] = await upstream.elicitInput(labels.elicitation(params as ElicitRequest['params']), options);
        break;
      case 'sampling/createMessage':
        need(upstream, 'sampling');
        answers[key] = await upstream.createMessage(labels.sampling(params as CreateMessageRequest['params']), options);
        break;
      case 'roots/list':
        need(upstream, 'roots');
        answers[key] = await upstream.listRoots(params as ListRootsRequest['params'], options);
        break;
      default:
        throw new RpcError(-32601, `it asked for ${JSON.stringify(request?.method)}, which no client answers`);
    }
  }
  return answers;
}

function need(upstream: ClientSide, capability: 'sampling' | 'elicitation' | 'roots'): void {
  if (upstream.capabilities()?.[capability]) return;
  throw new RpcError(-32601, `the client connected to hub does not support ${capability}`);
}
