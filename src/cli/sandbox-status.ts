// `hub status`'s sandbox line: what this HUB_HOME's stdio children run in, or why not.
import type { HubConfig } from '../core/config/config.js';
import { sandboxProbe } from '../core/sandbox-probe.js';
import { findSlirp, SLIRP_HINT } from '../proxy/sandbox/network.js';

/** `hub status`'s sandbox line: what the stdio children of this HUB_HOME run in, or why they do not start. */
export async function sandboxStatus(config: HubConfig): Promise<{ kind: string; text: string }> {
  if (!config.sandbox.enabled)
    return { kind: 'off', text: 'off (config.json sandbox.enabled: false): stdio children run unsandboxed' };
  const found = await sandboxProbe();
  if (found.kind === 'bwrap')
    return {
      kind: 'bubblewrap',
      text: `bubblewrap ${found.version} (${found.path}): every stdio child runs in it unless a person turned it off for that server; ${
        findSlirp(process.env.PATH) === undefined
          ? `slirp4netns is NOT installed, so a child's default network includes this machine's services (localhost): ${SLIRP_HINT}`
          : "its default network is the internet but not this machine's services (slirp4netns)"
      }`,
    };
  return {
    kind: 'none',
    text: `none: ${found.why}. Stdio children do not start; a person allows them unsandboxed with \`hub-mcp servers configure <name> --no-sandbox\` or "sandbox": { "enabled": false } in config.json`,
  };
}
