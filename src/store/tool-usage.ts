// How often each proxied tool was called across hubs and sessions (tool-usage.json), best effort.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { HubPaths } from '../core/paths.js';
import { writeFileAtomic } from '../core/write-atomic.js';
import { withLock } from './lock/lock.js';

// HUB_HOME/tool-usage.json: how often each proxied tool was called, over every hub and session,
// so a capped client lists the tools people actually use first (proxy/exposure/plan.ts). Advisory:
// an unreadable file reads as no calls; additions go under their own lock (not db.json's), so
// counting never waits on an install.

const ToolUsageSchema = z.object({
  version: z.literal(1),
  /** server → the child's own tool name → calls. */
  servers: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
});
export type ToolUsage = z.infer<typeof ToolUsageSchema>;

// Bounded: a file grown past this is read as empty, and started again by the next addition.
const MAX_BYTES = 1024 * 1024;
const LOCK_TIMEOUT_MS = 2_000;

const usageFile = (paths: HubPaths): string => join(paths.home, 'tool-usage.json');

/** Calls per server and tool; empty when there is no readable file. */
export function readToolUsage(paths: HubPaths): ToolUsage['servers'] {
  try {
    const text = readFileSync(usageFile(paths), 'utf8');
    if (text.length > MAX_BYTES) return {};
    const parsed = ToolUsageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.servers : {};
  } catch {
    return {};
  }
}

/** Adds calls (server → tool → count) to the file; best effort, never throws. */
export async function addToolUsage(
  paths: HubPaths,
  added: ReadonlyMap<string, ReadonlyMap<string, number>>,
): Promise<void> {
  if (added.size === 0) return;
  const file = usageFile(paths);
  try {
    await withLock(
      `${file}.lock`,
      () => {
        const servers = readToolUsage(paths);
        for (const [server, tools] of added) {
          const counts = (servers[server] ??= {});
          for (const [tool, calls] of tools) counts[tool] = (counts[tool] ?? 0) + calls;
        }
        writeFileAtomic(file, JSON.stringify({ version: 1, servers } satisfies ToolUsage));
        return Promise.resolve();
      },
      LOCK_TIMEOUT_MS,
    );
  } catch {
    // A full disk or a busy lock loses a few counts of a ranking hint, never a call.
  }
}
