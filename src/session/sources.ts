// A session's view of the core's resource sources: reads shared, subscriptions its own.
import type { ResourceSource } from '../proxy/surface/resource-source.js';

export interface SessionSubscriptions {
  subscribe(uri: string): Promise<unknown>;
  unsubscribe(uri: string): Promise<void>;
}

/** The core's sources, with this session's subscriptions kept apart. */
export const sessionSources = (
  sources: readonly ResourceSource[],
  subscriptions: SessionSubscriptions,
): ResourceSource[] =>
  sources.map(source => ({
    resources: () => source.resources(),
    templates: () => source.templates(),
    owns: uri => source.owns(uri),
    read: (uri, call) => source.read(uri, call),
    subscribe: async uri => void (await subscriptions.subscribe(uri)),
    unsubscribe: uri => subscriptions.unsubscribe(uri),
    ...(source.complete && { complete: (params, call) => source.complete!(params, call) }),
  }));
