import { tempHome } from '../lib/cleanup.mjs';
import { callgrindMissing, countInstructions } from '../lib/instructions.mjs';
import { EVERYTHING_JS, HUB_JS, LEAN_PROXY_JS } from '../lib/mcp.mjs';
import { registerEverything, Unavailable } from '../lib/targets.mjs';
import { row } from '../lib/report.mjs';

// Instructions per proxied echo of each proxy's own process, under callgrind (see
// lib/instructions.mjs): hub against the lean proxy (one JSON.parse + stringify per hop, no SDK)
// and the raw pipe (no parse at all). Runs of the same build agree within about 1 %.

const PLAN = { warmup: 200, calls: 500 };

const leanArgs = raw => [LEAN_PROXY_JS, ...(raw ? ['--raw'] : []), EVERYTHING_JS, 'stdio'];

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
  log(`  under callgrind, ${PLAN.warmup} warm-up + ${PLAN.calls} counted calls each: lean, raw pipe, hub`);
  const common = { tool: 'everything.echo', ...PLAN, log };
  const lean = await countInstructions({ args: leanArgs(false), ...common });
  const raw = await countInstructions({ args: leanArgs(true), ...common });
  const hub = await countInstructions({ args: [HUB_JS], env: { HUB_HOME: home }, ...common });
  const k = n => Math.round(n / 100) / 10;
  const rows = [
    row('instructions', 'lean proxy, instructions per call (thousands, its process)', k(lean.perCall), {
      label: 'reference',
      value: null,
    }),
    row('instructions', 'raw pipe, instructions per call (thousands, its process)', k(raw.perCall), {
      label: 'lean',
      value: k(lean.perCall),
    }),
    row(
      'instructions',
      'hub, instructions per proxied call (thousands, its process)',
      k(hub.perCall),
      { label: 'lean', value: k(lean.perCall) },
      { text: '≤ 1.2× lean', ratioMax: 1.2 },
    ),
  ];
  return {
    section: { status: 'ok', plan: PLAN, results: { lean, raw, hub }, hubOverLean: hub.perCall / lean.perCall },
    rows,
  };
}
