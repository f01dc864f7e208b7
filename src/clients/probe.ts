// Imported servers started once, so their tools are cached and listed by every hub.
import { errorMessage } from '../core/errors.js';
import { noClient } from '../proxy/sessions/client-side.js';
import { createServerManager } from '../proxy/server-manager.js';
import { openContext } from '../store/open-context.js';
import type { ClientContext } from './types.js';

export type ProbeResult = { ok: true; tools: number } | { ok: false; error: string; logFile: string };

const PROBE_TIMEOUT_MS = 30_000;

// Start each imported server once, as registry.install does, so its tools are cached in the
// store and listed by every hub at once; the children are closed before this returns.
export async function probeServers(
  names: readonly string[],
  context: ClientContext,
): Promise<Map<string, ProbeResult>> {
  const { config, log, store } = openContext({ env: context.env, log: { name: 'hub-import', stderr: false } });
  const manager = createServerManager({ config, log, store, client: noClient }, { startTimeoutMs: PROBE_TIMEOUT_MS });
  const results = new Map<string, ProbeResult>();
  try {
    await Promise.all(
      names.map(async name => {
        try {
          results.set(name, { ok: true, tools: (await manager.start(name)).length });
        } catch (error) {
          results.set(name, {
            ok: false,
            error: errorMessage(error).split('\n')[0] ?? '',
            logFile: config.paths.serverLog(name),
          });
        }
      }),
    );
  } finally {
    await manager.close();
  }
  return results;
}
