// Resource subscriptions of many sessions: a source subscribed once, updates to who asked.
import type { ResourceSource } from './resource-source.js';

/**
 * Resource subscriptions of many sessions on one set of sources: the source is subscribed once
 * and unsubscribed when the last session that asked lets go; each session remembers its own, so
 * resources/updated reaches only sessions that subscribed.
 */
export interface SharedSubscriptions {
  subscribe(uri: string, mine: Set<string>): Promise<boolean>;
  unsubscribe(uri: string, mine: Set<string>): Promise<void>;
}

export function sharedSubscriptions(sources: () => readonly ResourceSource[]): SharedSubscriptions {
  const counts = new Map<string, number>();
  return {
    async subscribe(uri, mine) {
      const source = sources().find(candidate => candidate.owns(uri));
      if (!source) return false;
      if (!mine.has(uri)) {
        mine.add(uri);
        counts.set(uri, (counts.get(uri) ?? 0) + 1);
      }
      await source.subscribe(uri);
      return true;
    },
    async unsubscribe(uri, mine) {
      if (!mine.delete(uri)) return;
      const left = (counts.get(uri) ?? 1) - 1;
      if (left > 0) return void counts.set(uri, left);
      counts.delete(uri);
      await Promise.all(
        sources()
          .filter(source => source.owns(uri))
          .map(source => source.unsubscribe(uri)),
      );
    },
  };
}
