// The process groups of the child MCP servers this process runs, so a shared hub can write them
// down (shared-hub/children.ts) and the next one reaps what a SIGKILLed hub left behind. Each
// child leads its own group (proxy/child/transport.ts spawns them detached), so a group dies
// with nobody: somebody must remember it.

type Listener = (groups: ReadonlySet<number>) => void;

const groups = new Set<number>();
let listener: Listener | undefined;

/** One listener: the shared hub's recorder. The in-process hub sets none and pays nothing. */
export function onChildGroupsChanged(next: Listener | undefined): void {
  listener = next;
}

export function childGroupStarted(pgid: number): void {
  groups.add(pgid);
  listener?.(groups);
}

export function childGroupEnded(pgid: number): void {
  if (groups.delete(pgid)) listener?.(groups);
}
