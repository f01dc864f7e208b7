// Who is acting (an agent's session, the CLI, the dashboard or hub itself), for the audit log.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who asked for what hub does now, for the audit log: the agent (a tool call of a session), the
 * person through the CLI or the dashboard, or hub itself (a crash restart, an idle stop). Set
 * where a request comes in (tools/table.ts, the dashboard's API, the CLI) and read where the
 * action happens (process/, registry/), so no layer between has to pass it along.
 */
export type ActorKind = 'agent' | 'cli' | 'dashboard' | 'hub';

export interface Actor {
  readonly by: ActorKind;
  /** The calling session (the proxy's session object), for an agent's action. */
  readonly session?: object | undefined;
}

const current = new AsyncLocalStorage<Actor>();
let fallback: Actor = { by: 'hub' };

export const runAs = <T>(actor: Actor, fn: () => T): T => current.run(actor, fn);

/** Who is acting here: the request's actor, or the process's (the CLI says 'cli' once at start). */
export const currentActor = (): Actor => current.getStore() ?? fallback;

/** The actor of everything this process does outside a request (`hub <command>`: the person). */
export function setProcessActor(by: ActorKind): void {
  fallback = { by };
}
