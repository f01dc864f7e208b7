// Install consent: the exact plan put to the person, asked through elicitation or not at all.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { HubError, errorMessage } from '../../core/errors.js';
import { describeUndo, forgetCommand, type UndoQuestion } from './kept-decisions.js';
import { describeScripts, type ScriptsChoice } from './scripts-choice.js';

export type ConfirmSetting = 'if-supported' | 'always' | 'never';

/** What the person is asked to approve: the exact package and the exact command lines. */
export interface InstallPlan {
  readonly name: string;
  readonly package: string | undefined;
  /** npm install command line, when something is installed. */
  readonly installLine: string | undefined;
  /** How the server is launched (no env values). */
  readonly launchLine: string;
  /** Install scripts allowed to run (registry.install allowScripts), asked for with the install. */
  readonly scripts?: ScriptsChoice | undefined;
  /** Set for upgrades: the version installed now. */
  readonly upgradeFrom?: string | undefined;
  /** A remote server: what its server card said (install/server-card.ts), shown as is. */
  readonly card?: string | undefined;
}

/** What a confirm answers when config.json said not to ask (install.confirm "never", or "if-supported" without a prompt). */
export const NOT_ASKED = 'not asked';

/** Asks for approval; resolves when approved (NOT_ASKED: config.json said not to ask), throws CONSENT_DECLINED or CONSENT_UNAVAILABLE otherwise. */
export type Confirm = (plan: InstallPlan) => Promise<void | typeof NOT_ASKED>;

export function describePlan(plan: InstallPlan): string {
  const what = plan.upgradeFrom
    ? `Upgrade MCP server "${plan.name}" from ${plan.upgradeFrom} to the npm package "${plan.package ?? ''}"?`
    : plan.package
      ? `Install the npm package "${plan.package}" as MCP server "${plan.name}"?`
      : `Register the command below as MCP server "${plan.name}"?`;
  const install = plan.installLine ? `\n\nhub will run:\n  ${plan.installLine}` : '';
  const scripts = plan.scripts ? `\n\n${describeScripts(plan.scripts)}` : '';
  const card = plan.card ? `\n\n${plan.card}` : '';
  return `${what}${install}${scripts}\n\nThe server will be started as:\n  ${plan.launchLine}${card}`;
}

// Elicitation goes to a person, who may take a while to read: far longer than a request timeout.
const CONSENT_TIMEOUT_MS = 10 * 60_000;

// Clients known to answer approval prompts without a person: `codex exec` declines each one
// (Codex sends the same name from its TUI, which asks: hence "may", and every decline still
// names the way out).
const SELF_DECLINING_CLIENTS: readonly string[] = ['codex-mcp-client'];
// Faster than a person reads the plan and clicks: the client answered by itself.
const UNSEEN_DECLINE_MS = 1_000;

// The terminal command that approves this very install by typing it (none for a bare command).
function terminalCommand(plan: InstallPlan): string | undefined {
  if (plan.upgradeFrom) return `hub-mcp upgrade ${plan.name}`;
  return plan.package ? `hub-mcp install ${plan.package}` : undefined;
}

// The ways to approve an install when this client cannot ask the person. config.json applies to
// the running hub at once (core/config/watch.ts), so calling again works without a restart.
function waysOut(plan: InstallPlan, configFile: string, setting = '"never"', lead = 'To install anyway'): string {
  const command = terminalCommand(plan);
  const terminal = command ? `run \`${command}\` in a terminal (typing it is the approval), or ` : '';
  return `${lead}, ${terminal}set "install": { "confirm": ${setting} } in ${configFile} (the running hub applies it within a second, no restart), then call registry.install again.`;
}

/** Why a decline may not be the person's: `unseen` when there is reason to think so. */
function declineNote(client: string | undefined, ms: number): { unseen: boolean; text: string } {
  if (client !== undefined && SELF_DECLINING_CLIENTS.includes(client))
    return {
      unseen: true,
      text: ` ${client} may have declined without showing anyone the question (\`codex exec\` declines every approval prompt by itself).`,
    };
  if (ms < UNSEEN_DECLINE_MS)
    return {
      unseen: true,
      text: ` The decline came back after ${ms} ms, too fast for a person to read the question: this client (${client ?? 'unnamed'}) likely declines approval prompts by itself.`,
    };
  return {
    unseen: false,
    text: ' If no one saw the question (some clients decline every prompt by themselves, as `codex exec` does), the user was not asked.',
  };
}

/** Consent through MCP elicitation, per config install.confirm (docs/servers.md "Installing MCP servers through hub"). */
export function elicitationConfirm(
  server: Server,
  setting: ConfirmSetting,
  signal?: AbortSignal,
  configFile = '~/.hub/config.json',
): Confirm {
  return async plan => {
    if (setting === 'never') return NOT_ASKED;
    const subject = plan.package ?? plan.name;
    // Form elicitation is what hub asks with; `elicitation: {}` from older clients means form.
    const caps = server.getClientCapabilities()?.elicitation;
    const supported = caps !== undefined && (caps.form !== undefined || Object.keys(caps).length === 0);
    if (!supported) {
      if (setting === 'if-supported') return NOT_ASKED;
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Install of "${subject}" was not approved: config install.confirm is "always" but this client cannot ask you (no elicitation support); nothing was installed. ${waysOut(plan, configFile, '"if-supported"')}`,
      );
    }
    let answer;
    const asked = Date.now();
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
                description: plan.upgradeFrom ? 'Upgrade this server' : 'Install and run this server',
                default: false,
              },
            },
            required: ['approve'],
          },
        },
        { timeout: CONSENT_TIMEOUT_MS, ...(signal && { signal }) },
      );
    } catch (error) {
      if (signal?.aborted)
        throw new HubError('CANCELLED', `Install of "${subject}" was cancelled by the caller; nothing was installed.`, {
          cause: error,
        });
      // Mastra advertises elicitation with no handler (-32601): the person never saw a question.
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Install of "${subject}" could not be approved: this client advertises approval prompts but asking failed (${errorMessage(error)}), so you were never asked; nothing was installed. ${waysOut(plan, configFile)}`,
        { cause: error },
      );
    }
    if (answer.action === 'cancel') {
      // `claude -p` cancels every prompt unseen; a person closing the dialog looks the same.
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Install of "${subject}" was not approved: the approval prompt was cancelled without an answer (closed, or this client cannot show prompts, as \`claude -p\` cancels every one); nothing was installed. ${waysOut(plan, configFile)}`,
      );
    }
    if (answer.action !== 'accept' || answer.content?.approve !== true) {
      const how = answer.action === 'accept' ? 'not approved' : 'declined';
      // Said with every decline: the client may have answered for nobody, and the person then
      // needs a way that does not go through this client's prompt.
      const note = declineNote(server.getClientVersion()?.name, Date.now() - asked);
      throw new HubError(
        'CONSENT_DECLINED',
        `Install of "${subject}" was ${how}${note.unseen ? '' : ' by the user'}; nothing was installed.${note.text} Do not retry as is: ask the user. ${waysOut(plan, configFile, '"never"', 'If they want it')}`,
      );
    }
  };
}

/**
 * The person's answer before an install drops their decisions about a server uninstalled since.
 * Unlike an install, "if-supported" does not let it through when the client cannot ask: the agent
 * would undo the person alone. Only "install.confirm": "never" skips asking.
 */
export function elicitationUndo(
  server: Server,
  setting: ConfirmSetting,
  signal?: AbortSignal,
): (question: UndoQuestion) => Promise<void> {
  return async question => {
    if (setting === 'never') return;
    const terminal = `The user can run \`${forgetCommand(question.name)}\` in a terminal to drop them, or install it under another name.`;
    const nothing = `Nothing was installed: installing ${question.now} as "${question.name}" would undo the user's decisions about the earlier "${question.name}" (${question.undone.join('; ')})`;
    const caps = server.getClientCapabilities()?.elicitation;
    if (caps === undefined || (caps.form === undefined && Object.keys(caps).length > 0))
      throw new HubError('CONSENT_UNAVAILABLE', `${nothing}, and this client cannot ask them. ${terminal}`);
    let answer;
    try {
      answer = await server.elicitInput(
        {
          message: describeUndo(question),
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Undo them and install', default: false } },
            required: ['approve'],
          },
        },
        { timeout: CONSENT_TIMEOUT_MS, ...(signal && { signal }) },
      );
    } catch (error) {
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `${nothing}; asking the user failed (${errorMessage(error)}). ${terminal}`,
        {
          cause: error,
        },
      );
    }
    if (answer.action !== 'accept' || answer.content?.approve !== true)
      throw new HubError(
        answer.action === 'cancel' ? 'CONSENT_UNAVAILABLE' : 'CONSENT_DECLINED',
        `${nothing}: the user did not agree. Their decisions stay kept.`,
      );
  };
}
