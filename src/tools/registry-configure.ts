// registry.configure: per-server settings and approving changed tools, for the agent.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { z } from 'zod';
import type { HubConfig } from '../core/config/config.js';
import { HubError, errorMessage, isHubError } from '../core/errors.js';
import type { ServerManager } from '../proxy/server-manager.js';
import { elicitationConfirm } from '../registry/decisions/consent.js';
import { formatCommandLine } from '../core/shell-quote.js';
import { configureServer, describeServer, type ConfigureDeps } from '../registry/installed/settings.js';
import { settingsCommand } from '../registry/installed/widening.js';
import {
  IntegrityReportSchema,
  integrityReport,
  reportLines,
  type ToolChange,
} from '../registry/decisions/tool-review.js';
import { sandboxLine, sandboxRequest, sandboxView } from '../registry/installed/sandbox-settings.js';
import type { ServerRecord } from '../store/schema.js';
import { askSettings } from './configure-consent.js';
import { defineTool, type HubTool, type ToolDeps } from './define.js';

// registry.configure: per-server settings and approving changed tools, for the agent. The same
// work as `hub servers configure|enable|disable|approve` (registry/installed/settings.ts).

// Plain lists in the listed schema (bytes in every client's context); installed/settings.ts bounds them.
const PatternsSchema = z.array(z.string());

export const ConfigureInputSchema = z.strictObject({
  server: z.string(),
  enabled: z.boolean().optional(),
  tools: z
    .object({
      allow: PatternsSchema.optional().describe('Only these names or globs; [] clears'),
      deny: PatternsSchema.optional(),
    })
    .optional(),
  env: z.record(z.string(), z.string()).optional().describe('Secret; "" removes a key'),
  args: z.array(z.string()).optional(),
  approve: z.array(z.string()).optional().describe('Changed tools or ["*"]; asks the user'),
  // Checked by SandboxRequestSchema in the handler: its full schema would not fit the listing budget.
  sandbox: z.unknown().meta({ type: 'object' }).optional(),
});

export const ConfigureOutputSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  tools: z.object({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() }),
  envKeys: z.array(z.string()),
  args: z.array(z.string()),
  state: z.string(),
  listed: z.number().describe('Tools listed now'),
  approved: z.array(z.string()).optional(),
  changedAgain: z
    .array(z.string())
    .optional()
    .describe('Changed again while the user was asked: the newer definition stays withheld'),
  restarted: z.boolean().optional(),
  integrity: IntegrityReportSchema,
  sandbox: z.record(z.string(), z.unknown()).describe('The sandbox policy in force'),
  next: z.string(),
});

// A person reads this before anything changes: long, since approval reads slowly.
const APPROVAL_TIMEOUT_MS = 10 * 60_000;

const terminalWay = (server: string) =>
  `Ask the user to review registry.list { server: "${server}" } and run \`hub-mcp servers approve ${server}\` in a terminal.`;

/** Approval by the person through elicitation; never by the agent alone, whatever config install.confirm says. */
export function askApproval(server: Server, signal: AbortSignal): NonNullable<ConfigureDeps['confirmApproval']> {
  return async (name, changes: ToolChange[]) => {
    const caps = server.getClientCapabilities()?.elicitation;
    if (caps === undefined || (caps.form === undefined && Object.keys(caps).length > 0))
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Nothing was approved: approving changed tools needs the user, and this client cannot ask them (no elicitation support). ${terminalWay(name)}`,
      );
    const message = [
      `MCP server "${name}" changed these tools since they were approved. Approve the new definitions?`,
      ...reportLines(name, { changed: changes }).filter(line => !line.startsWith('Approve after review')),
    ].join('\n');
    let answer;
    try {
      answer = await server.elicitInput(
        {
          message,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve', default: false } },
            required: ['approve'],
          },
        },
        { timeout: APPROVAL_TIMEOUT_MS, signal },
      );
    } catch (error) {
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Nothing was approved: asking the user failed (${errorMessage(error)}). ${terminalWay(name)}`,
        { cause: error },
      );
    }
    if (answer.action === 'cancel')
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Nothing was approved: the question was closed unanswered. ${terminalWay(name)}`,
      );
    if (answer.action !== 'accept' || answer.content?.approve !== true)
      throw new HubError(
        'CONSENT_DECLINED',
        // A client may decline for nobody (`codex exec` declines every prompt): the terminal way too.
        `The user did not approve the changed tools of "${name}"; they stay withheld. If no one saw the question (\`codex exec\` declines every prompt by itself): ${terminalWay(name)}`,
      );
  };
}

/** Consent for new args, as registry.install asks it (config install.confirm). */
const argsConfirm =
  (server: Server, config: HubConfig, signal: AbortSignal): NonNullable<ConfigureDeps['confirmArgs']> =>
  (record: ServerRecord, args: string[]) =>
    elicitationConfirm(
      server,
      config.install.confirm,
      signal,
      config.paths.configFile,
    )({
      name: record.name,
      package: record.package,
      installLine: undefined,
      launchLine: formatCommandLine(record.command, args),
    });

export function createConfigureTool(deps: ToolDeps, manager: ServerManager): HubTool {
  const { config, log, store, server } = deps;
  return defineTool({
    name: 'registry.configure',
    title: 'Configure a server',
    description:
      "Set an installed server's settings in all hubs: enabled, tools allow/deny globs, env, args, sandbox {read,write,network}; " +
      'approve changed tools. Sends tools/list_changed.',
    input: ConfigureInputSchema,
    output: ConfigureOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(input, call) {
      const settingsDeps = { config, log, store, manager };
      const request = { ...input, sandbox: sandboxRequest(input.sandbox) };
      const askPerson = askSettings(server, config, call.signal);
      let refused: { error: HubError; record: ServerRecord } | undefined;
      let result;
      try {
        result = await configureServer(request, {
          ...settingsDeps,
          confirmArgs: argsConfirm(server, config, call.signal),
          confirmApproval: askApproval(server, call.signal),
          confirmSettings: async (record, widens) => {
            try {
              await askPerson(record, widens);
            } catch (error) {
              if (isHubError(error) && error.code !== 'CANCELLED') refused = { error, record };
              throw error;
            }
          },
        });
      } catch (error) {
        if (!refused || error !== refused.error) throw error;
        // Refused, nothing changed: the current settings, and in `next` the command the person types.
        const current = await describeServer(refused.record, settingsDeps);
        const next = `Ask the user to run in a terminal (typing it is the approval): ${settingsCommand(request)}`;
        return {
          structured: { ...current, next },
          text: `${refused.error.code}: ${refused.error.message}\n${next}`,
          isError: true,
        };
      }
      const text = [
        `${result.name}: ${result.enabled ? 'enabled' : 'disabled'}, ${result.state}, ${result.listed} tools listed${result.restarted ? ', restarted' : ''}`,
        ...(result.tools.allow ? [`allow: ${result.tools.allow.join(', ')}`] : []),
        ...(result.tools.deny ? [`deny: ${result.tools.deny.join(', ')}`] : []),
        ...(result.envKeys.length > 0 ? [`env: ${result.envKeys.join(', ')} (values not shown)`] : []),
        ...(result.approved ? [`approved: ${result.approved.join(', ') || 'nothing was waiting'}`] : []),
        ...(result.changedAgain
          ? [`changed again while the user was asked (still withheld): ${result.changedAgain.join(', ')}`]
          : []),
        ...reportLines(result.name, result.integrity),
        result.next,
      ];
      return { structured: result, text: text.join('\n') };
    },
  });
}

/** What registry.list { server } adds about settings and integrity (read from the store only). */
export function settingsView(
  config: HubConfig,
  record: ServerRecord | undefined,
): {
  structured: {
    settings?: ServerRecord['settings'];
    integrity?: z.infer<typeof IntegrityReportSchema>;
    sandbox?: Record<string, unknown>;
  };
  lines: string[];
  /** Tools withheld for integrity: their new definitions are not shown in full (only integrity.changed's summary). */
  withheld: ReadonlySet<string>;
} {
  if (!record) return { structured: {}, lines: [], withheld: new Set() };
  const integrity = integrityReport(config.paths, record, config.integrity, 'agent');
  const settings = record.settings;
  const sandbox = sandboxView(record, config);
  const lines = [
    ...(settings?.enabled === false
      ? [`disabled: not started, nothing listed (hub-mcp servers enable ${record.name})`]
      : []),
    ...(settings?.allow ? [`allow: ${settings.allow.join(', ')}`] : []),
    ...(settings?.deny ? [`deny: ${settings.deny.join(', ')}`] : []),
    ...reportLines(record.name, integrity),
    sandboxLine(sandbox),
  ];
  const hasReport = integrity.changed !== undefined || integrity.markers !== undefined;
  const withheld = new Set(
    (integrity.changed ?? []).filter(change => change.action === 'withheld').map(change => change.tool),
  );
  return { structured: { ...(settings && { settings }), ...(hasReport && { integrity }), sandbox }, lines, withheld };
}
