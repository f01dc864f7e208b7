import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { HubError, errorMessage } from '../errors.js';

export type ConfirmSetting = 'if-supported' | 'always' | 'never';

/** What the person is asked to approve: the exact package and the exact command lines. */
export interface InstallPlan {
  readonly name: string;
  readonly package: string | undefined;
  /** npm install command line, when something is installed. */
  readonly installLine: string | undefined;
  /** How the server is launched (no env values). */
  readonly launchLine: string;
}

/** Asks for approval; resolves when approved (or not asked), throws CONSENT_DECLINED otherwise. */
export type Confirm = (plan: InstallPlan) => Promise<void>;

export function describePlan(plan: InstallPlan): string {
  const what = plan.package
    ? `Install the npm package "${plan.package}" as MCP server "${plan.name}"?`
    : `Register the command below as MCP server "${plan.name}"?`;
  const install = plan.installLine ? `\n\nhub will run:\n  ${plan.installLine}` : '';
  return `${what}${install}\n\nThe server will be started as:\n  ${plan.launchLine}`;
}

// Elicitation goes to a person, who may take a while to read: far longer than a request timeout.
const CONSENT_TIMEOUT_MS = 10 * 60_000;

/** Consent through MCP elicitation, per config install.confirm (SPEC "Registry tools"). */
export function elicitationConfirm(server: Server, setting: ConfirmSetting, signal?: AbortSignal): Confirm {
  return async plan => {
    if (setting === 'never') return;
    // Form elicitation is what hub asks with; `elicitation: {}` from older clients means form.
    const caps = server.getClientCapabilities()?.elicitation;
    const supported = caps !== undefined && (caps.form !== undefined || Object.keys(caps).length === 0);
    if (!supported) {
      if (setting === 'if-supported') return;
      throw new HubError(
        'CONSENT_DECLINED',
        `Install of "${plan.package ?? plan.name}" refused: config install.confirm is "always" but this client cannot ask you (no elicitation support); run \`hub install\` in a terminal, or set install.confirm to "if-supported" in config.json.`,
      );
    }
    let answer;
    try {
      answer = await server.elicitInput(
        {
          message: describePlan(plan),
          requestedSchema: {
            type: 'object',
            properties: {
              approve: {
                type: 'boolean',
                title: 'Approve',
                description: 'Install and run this server',
                default: false,
              },
            },
            required: ['approve'],
          },
        },
        { timeout: CONSENT_TIMEOUT_MS, ...(signal && { signal }) },
      );
    } catch (error) {
      throw new HubError(
        'CONSENT_DECLINED',
        `Install of "${plan.package ?? plan.name}" was not approved: asking for approval failed (${errorMessage(error)}); nothing was installed.`,
        { cause: error },
      );
    }
    if (answer.action !== 'accept' || answer.content?.approve !== true) {
      const how = answer.action === 'accept' ? 'not approved' : answer.action === 'decline' ? 'declined' : 'cancelled';
      throw new HubError(
        'CONSENT_DECLINED',
        `Install of "${plan.package ?? plan.name}" was ${how} by the user; nothing was installed. Ask the user before trying again.`,
      );
    }
  };
}
