// The tools/list answer kept ready, and when the client has been served a changed listing.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ProxiedTools } from '../proxy/types.js';
import type { NameMode, Spelling } from '../core/naming.js';

/**
 * The tools/list answer, kept ready: rebuilt only when the proxied routes change (the manager
 * hands out a new array then), so a re-list after list_changed is answered at once. It also
 * tells a tool call that changed the listing when the client has listed it again, so hub can
 * answer that re-list before (not after) the result that made the agent want the new tools.
 */
export interface ToolListing {
  /** The listed tools now; the same array until something changes. */
  tools(): Tool[];
  /** Counts changes of the listing. */
  version(): number;
  /** Call when a tools/list answer with the current listing is on its way to the client. */
  served(): void;
  /** Resolves once the client was served the listing of `version` (or a later one), or after maxMs. */
  relisted(version: number, maxMs: number, signal?: AbortSignal): Promise<void>;
  /** Dotted → listed name of every proxied tool (for names in hub's texts). */
  spelling(): Spelling;
}

/** `proxied` lists what this session shows; `all` (every proxied tool) spells names in hub's texts. */
export function createToolListing(
  own: readonly Tool[],
  proxied: Pick<ProxiedTools, 'list'>,
  mode: NameMode,
  all: Pick<ProxiedTools, 'list'> = proxied,
): ToolListing {
  let source: Tool[] | undefined;
  let signature = '';
  let tools: Tool[] = [];
  let version = 0;
  let servedVersion = -1;
  let spellingSource: Tool[] | undefined;
  let spelling: Spelling = new Map();
  const waiters = new Set<{ version: number; done: () => void }>();

  const current = (): Tool[] => {
    const now = proxied.list(mode);
    if (now !== source) {
      source = now;
      // A rebuild that lists the same tools is no change (the client got no list_changed).
      const next = JSON.stringify(now);
      if (next !== signature || version === 0) {
        signature = next;
        tools = [...own, ...now];
        version += 1;
      }
    }
    return tools;
  };

  return {
    tools: current,
    version: () => (current(), version),
    served() {
      servedVersion = version;
      for (const waiter of waiters) if (waiter.version <= servedVersion) waiter.done();
    },
    relisted(wanted, maxMs, signal) {
      if (servedVersion >= wanted || signal?.aborted) return Promise.resolve();
      return new Promise(resolve => {
        const waiter = {
          version: wanted,
          // setImmediate: the tools/list response, already handed to the transport, goes out first.
          done: () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', waiter.done);
            waiters.delete(waiter);
            setImmediate(resolve);
          },
        };
        const timer = setTimeout(waiter.done, maxMs);
        signal?.addEventListener('abort', waiter.done, { once: true });
        waiters.add(waiter);
      });
    },
    spelling() {
      const dotted = all.list('dotted');
      if (dotted !== spellingSource) {
        const listed = all.list(mode);
        spelling = new Map(dotted.map((tool, index) => [tool.name, listed[index]?.name ?? tool.name]));
        spellingSource = dotted;
      }
      return spelling;
    },
  };
}
