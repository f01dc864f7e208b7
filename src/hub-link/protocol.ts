// What an entry and the shared hub agree on besides the hello line (hello.ts, which needs zod:
// the entry does not load it).
export const HEARTBEAT_MS = 500;
/** The longest a hello line may be (the env of a client rarely passes a few kB). */
export const HELLO_MAX_BYTES = 1024 * 1024;

export interface StatusReport {
  readonly pid: number;
  readonly version: string;
  readonly startedAt: string;
  readonly socket: string;
  readonly sessions: readonly { entryPid: number; client?: string; cwd: string; since: string }[];
  readonly children: readonly { pgid: number; command: string }[];
  /** Where this hub serves the dashboard, once `hub ui` asked for it. */
  readonly dashboard?: string;
}

/** The shared hub's answer to a `ui` hello. */
export type UiReply =
  | { readonly hub: 'ui'; readonly url: string; readonly login: string; readonly already: boolean }
  | { readonly hub: 'error'; readonly message: string };
