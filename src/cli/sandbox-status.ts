import type { HubConfig } from '../core/config/config.js';
import { sandboxProbe } from '../core/sandbox-probe.js';

/** `hub status`'s sandbox line: what the stdio children of this HUB_HOME run in, or why they do not start. */
export async function sandboxStatus(config: HubConfig): Promise<{ kind: string; text: string }> {
  if (!config.sandbox.enabled)
    return { kind: 'off', text: 'off (config.json sandbox.enabled: false): stdio children run unsandboxed' };
  const found = await sandboxProbe();
  if (found.kind === 'bwrap')
    return {
      kind: 'bubblewrap',
      text: `bubblewrap ${found.version} (${found.path}): every stdio child runs in it unless a person turned it off for that server`,
    };
  return {
    kind: 'none',
    text: `none: ${found.why}. Stdio children do not start; a person allows them unsandboxed with \`hub-mcp servers configure <name> --no-sandbox\` or "sandbox": { "enabled": false } in config.json`,
  };
}
