import { tempHome } from '../lib/cleanup.mjs';
import { callgrindMissing, countInstructions, COUNT_PLAN } from '../lib/instructions.mjs';
import { EVERYTHING_JS, HUB_JS, LEAN_PROXY_JS } from '../lib/mcp.mjs';
import { registerEverything, Unavailable } from '../lib/targets.mjs';
import { row } from '../lib/report.mjs';

// Instructions per proxied echo of each proxy's own process, under callgrind (see
// lib/instructions.mjs): hub against the lean proxy (one JSON.parse + stringify per hop, no SDK).
// All threads (V8's compiler and GC helpers included) and the main thread alone.

export async function instructionsSection({ quick, log, shared }) {
  const skip = reason => {
    log(`  skipped: ${reason}`);
    return {
      section: { status: 'unavailable', reason },
      rows: [row('instructions', 'instructions per proxied call', null, undefined, undefined, reason)],
    };
  };
  const missing = callgrindMissing();
  if (missing) return skip(missing);
  // node under callgrind runs ~50× slower: minutes, not the smoke run's budget.
  if (quick) return skip('not run with --quick (node under callgrind takes minutes)');

  let home = shared.proxyHome;
  if (!home) {
    home = await tempHome();
    try {
      await registerEverything(home, shared.everythingTools);
    } catch (error) {
      if (!(error instanceof Unavailable)) throw error;
      return skip(`hub: ${error.message}`);
    }
  }
  log(`  under callgrind, ${COUNT_PLAN.warmup} warm-up + ${COUNT_PLAN.calls} counted calls each: lean, hub`);
  const common = { tool: 'everything.echo', ...COUNT_PLAN, log };
  const lean = await countInstructions({ args: [LEAN_PROXY_JS, EVERYTHING_JS, 'stdio'], ...common });
  const hub = await countInstructions({ args: [HUB_JS], env: { HUB_HOME: home }, ...common });
  const k = n => Math.round(n / 100) / 10;
  const rows = [
    row('instructions', 'lean proxy, instructions per call (thousands, its process)', k(lean.perCall), {
      label: 'main thread',
      value: k(lean.mainPerCall),
    }),
    row(
      'instructions',
      'hub, instructions per proxied call (thousands, its process)',
      k(hub.perCall),
      { label: 'lean', value: k(lean.perCall) },
      { text: '≤ 1.2× lean', ratioMax: 1.2 },
    ),
    row('instructions', 'hub, of which its main thread (thousands)', k(hub.mainPerCall), {
      label: 'lean main thread',
      value: k(lean.mainPerCall),
    }),
  ];
  return {
    section: { status: 'ok', plan: COUNT_PLAN, results: { lean, hub }, hubOverLean: hub.perCall / lean.perCall },
    rows,
  };
}
