// Paging over the lists hub answers (prompts, resources, templates): hub caches every child's
// list complete and pages over the whole with its own opaque cursor. Pure and dependency-free,
// so the cold-start lane answers every page exactly as the full hub does.

/** Entries per page: a client gets 1,000 resources in 10 requests, each message well bounded. */
export const PAGE_SIZE = 100;

export type PagedKind = 'prompts' | 'resources' | 'resourceTemplates';

const encode = (kind: PagedKind, offset: number): string =>
  Buffer.from(JSON.stringify({ hub: kind, at: offset })).toString('base64url');

function decode(kind: PagedKind, cursor: string): number | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { hub?: unknown; at?: unknown };
    return value.hub === kind && Number.isInteger(value.at) && (value.at as number) > 0
      ? (value.at as number)
      : undefined;
  } catch {
    return undefined;
  }
}

/** One page of items, or a message naming the bad cursor (the caller answers -32602 with it). */
export function pageOf<T>(
  kind: PagedKind,
  items: readonly T[],
  cursor: unknown,
): { items: T[]; nextCursor?: string } | { error: string } {
  let from = 0;
  if (cursor !== undefined) {
    const at = typeof cursor === 'string' ? decode(kind, cursor) : undefined;
    if (at === undefined || at > items.length)
      return {
        error: `params.cursor is not a cursor hub gave for this list (or the list has since shrunk); list again without a cursor.`,
      };
    from = at;
  }
  const to = Math.min(items.length, from + PAGE_SIZE);
  const page = items.slice(from, to);
  return to < items.length ? { items: page, nextCursor: encode(kind, to) } : { items: page };
}
