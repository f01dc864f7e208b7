// A server's sandbox as the dashboard shows it: its settings, the policy in force, whether it is on here.
import type { HubConfig } from '../core/config/config.js';
import { sandboxProbe } from '../core/sandbox-probe.js';
import { sandboxLine, sandboxView } from '../registry/installed/sandbox-settings.js';
import type { ServerRecord } from '../store/schema.js';

// Read through the same code as `hub servers <name>` (sandboxView, sandboxLine) and `hub status`
// (sandboxProbe): the page shows what they show. Changes go through configure (api.ts).

export interface DashboardSandbox {
  /** Whether the settings apply: a remote server has no process here, an oci one its container. */
  readonly applies: boolean;
  /** The server's own grants, as stored (the form edits these). */
  readonly settings: {
    readonly enabled: boolean;
    readonly read: string[];
    readonly write: string[];
    readonly network: 'all' | 'none' | 'host' | string[];
  };
  /** The policy in force (registry.list { server }'s `sandbox`) and its one line. */
  readonly policy: Record<string, unknown>;
  readonly line: string;
  /** on: it runs sandboxed; off: unsandboxed (a person's setting); unavailable: it does not start. */
  readonly state: 'on' | 'off' | 'unavailable' | 'n/a';
  /** What this machine runs children in, or why nothing. */
  readonly machine: string;
}

export async function dashboardSandbox(record: ServerRecord, config: HubConfig): Promise<DashboardSandbox> {
  const own = record.settings?.sandbox;
  const policy = sandboxView(record, config);
  const applies = record.remote === undefined && record.kind !== 'oci';
  const probe = await sandboxProbe();
  const machine = !config.sandbox.enabled
    ? 'off for every server (config.json sandbox.enabled: false)'
    : probe.kind === 'bwrap'
      ? `bubblewrap ${probe.version} (${probe.path})`
      : `none: ${probe.why}`;
  const state = !applies ? 'n/a' : policy.mode !== 'bubblewrap' ? 'off' : probe.kind === 'bwrap' ? 'on' : 'unavailable';
  return {
    applies,
    settings: {
      enabled: own?.enabled !== false,
      read: own?.read ?? [],
      write: own?.write ?? [],
      network: own?.network ?? 'all',
    },
    policy,
    line: sandboxLine(policy),
    state,
    machine,
  };
}
