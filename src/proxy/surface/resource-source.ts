// ResourceSource: one set of resources hub lists and reads (the proxied servers', or hub's own).
import type {
  CompleteRequest,
  CompleteResult,
  Progress,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';

/** The caller of one read: its cancel signal, and progress to relay when it asked for progress. */
export interface ReadCall {
  readonly signal: AbortSignal;
  readonly onProgress?: ((progress: Progress) => void) | undefined;
  /** The session that asked: what the child asks the person meanwhile goes to it. */
  readonly session?: object | undefined;
  /** The request's _meta (its traceparent is passed on, see calls/span.ts). */
  readonly meta?: Record<string, unknown> | undefined;
}

/**
 * One set of resources hub lists and reads: the installed servers' (proxied), or hub's own
 * (`hub://…`). hub.ts lists every source in order and pages over the whole; a read, a
 * subscription or a completion goes to the one source that owns the URI.
 */
export interface ResourceSource {
  /** What is listed now, from memory or the store cache: listing never starts a child. */
  resources(): Promise<readonly Resource[]>;
  templates(): Promise<readonly ResourceTemplate[]>;
  /** True when this source answers reads of uri (a listed URI, or one matching its templates). */
  owns(uri: string): boolean;
  read(uri: string, call: ReadCall): Promise<ReadResourceResult>;
  /** After subscribe, the source reports changes of uri through the notifyUpdated it was built with. */
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /**
   * completion/complete for a ref/resource (a template's variable) this source owns; undefined
   * when the ref is not this source's. Optional: a source without completions never answers.
   */
  complete?(params: CompleteRequest['params'], call: ReadCall): Promise<CompleteResult | undefined>;
}
