// Which client capabilities a proxied tool needs (docs/exposure.md "Many servers, few tools"). hub cannot
// tell in advance: a child is started declaring every capability and is shared by sessions. So it
// learns: a child that asks the person (elicitation) or the model (sampling) while exactly one of
// its tools is in flight needs that capability for that tool (server-slot.ts), and the record keeps
// it (schema.ts toolNeeds). Roots are not among them: hub answers a child's roots/list from any
// session that has roots. Pure and zod-free: the full hub and the cold-start lane mark alike.

export type ToolNeed = 'elicitation' | 'sampling';

/** The needs of `needs` a client with these capabilities (its initialize's) does not offer. */
export function lackedNeeds(
  needs: readonly ToolNeed[] | undefined,
  capabilities: Readonly<Record<string, unknown>> | undefined,
): ToolNeed[] {
  if (needs === undefined || needs.length === 0) return [];
  return needs.filter(need => capabilities?.[need] === undefined || capabilities[need] === null);
}

/** The note a tool's description starts with for a client that lacks what it needs. */
function needsNote(lacked: readonly ToolNeed[]): string {
  const what = lacked.join(' and ');
  return `(Needs ${what}, which this client does not offer: it may fail here.)`;
}

/** The tool as listed to a client that lacks `lacked` (the same tool when it lacks nothing). */
export function markNeeds<T extends { description?: string | undefined }>(tool: T, lacked: readonly ToolNeed[]): T {
  if (lacked.length === 0) return tool;
  const note = needsNote(lacked);
  return { ...tool, description: tool.description ? `${note} ${tool.description}` : note };
}

/** Whether `needs` already records that `tool` needs `need`. */
export const needKnown = (
  needs: Readonly<Record<string, readonly ToolNeed[]>> | undefined,
  tool: string,
  need: ToolNeed,
) => needs !== undefined && Object.hasOwn(needs, tool) && needs[tool]!.includes(need);

/** `needs` with `need` added for `tool` (the same object when already there). */
export function withNeed(
  needs: Record<string, ToolNeed[]> | undefined,
  tool: string,
  need: ToolNeed,
): Record<string, ToolNeed[]> {
  if (needs !== undefined && needKnown(needs, tool, need)) return needs;
  const own = needs !== undefined && Object.hasOwn(needs, tool) ? needs[tool]! : [];
  return { ...needs, [tool]: [...own, need] };
}

/** A slot's tools/call in flight per tool name (all sessions): whose a child's request is, when one. */
export class ToolsInFlight {
  readonly #calls = new Map<string, number>();

  started(tool: string): void {
    this.#calls.set(tool, (this.#calls.get(tool) ?? 0) + 1);
  }

  ended(tool: string): void {
    const left = (this.#calls.get(tool) ?? 1) - 1;
    if (left > 0) this.#calls.set(tool, left);
    else this.#calls.delete(tool);
  }

  /** The one tool in flight; undefined when none or several are. */
  only(): string | undefined {
    return this.#calls.size === 1 ? this.#calls.keys().next().value : undefined;
  }
}
