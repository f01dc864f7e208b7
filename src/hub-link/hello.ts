// The hello line an entry writes first on the shared hub's socket, and what each kind asks.
import { z } from 'zod';

// The first line an entry writes on the socket says what it wants; after a `session` hello and
// the hub's `welcome` line the socket carries plain JSON-RPC lines, as stdin/stdout would.
const Id = z.union([z.string(), z.number().int()]);

export const HelloSchema = z.discriminatedUnion('hub', [
  z.object({
    hub: z.literal('session'),
    version: z.string(),
    /** The entry's pid, for `hub status`. */
    pid: z.number().int(),
    cwd: z.string(),
    env: z.record(z.string(), z.string()),
    /** Requests the entry's cold-start lane already answered (or a replayed initialize): not answered twice. */
    answered: z.array(Id),
    /** How many requests the cold-start lane answered; absent when reattaching after a hub died. */
    coldStartAnswered: z.number().int().nonnegative().optional(),
    /** The digest of the proxied tools the cold-start lane listed (core/listing-digest.ts). */
    listed: z.string().max(128).optional(),
  }),
  // A line every HEARTBEAT_MS while the hub's event loop runs: how an entry tells a hung hub.
  z.object({ hub: z.literal('heartbeat') }),
  z.object({ hub: z.literal('status') }),
  // Hand over (a newer entry) or `hub stop`: stop accepting, close sessions and children, exit.
  z.object({ hub: z.literal('stop'), reason: z.string().max(200) }),
  // `hub ui`: serve the dashboard from this hub (or say where it already is) and issue a login.
  z.object({
    hub: z.literal('ui'),
    host: z.enum(['127.0.0.1', 'localhost', '::1']),
    /** 0: any free port. */
    port: z.number().int().min(0).max(65_535),
  }),
]);
export type Hello = z.infer<typeof HelloSchema>;
