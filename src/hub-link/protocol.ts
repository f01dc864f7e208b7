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
}
