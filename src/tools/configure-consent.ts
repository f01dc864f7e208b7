// The person's consent to a widening registry.configure: refused when no one can be asked.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { HubConfig } from '../core/config/config.js';
import { HubError, errorMessage } from '../core/errors.js';
import type { ConfigureDeps } from '../registry/installed/settings.js';

// registry.configure's consent for changes that widen what the agent reaches (enable, un-deny,
// allow more): the person answers through elicitation, as for an install. Unlike an install,
// "if-supported" does not let it through when the client cannot ask: the agent would otherwise
// undo the person's decision alone. Only "install.confirm": "never" skips asking.

// A person reads this before anything changes.
const CONSENT_TIMEOUT_MS = 10 * 60_000;

export function askSettings(
  server: Server,
  config: HubConfig,
  signal: AbortSignal,
): NonNullable<ConfigureDeps['confirmSettings']> {
  return async (record, widens) => {
    if (config.install.confirm === 'never') return;
    const caps = server.getClientCapabilities()?.elicitation;
    if (caps === undefined || (caps.form === undefined && Object.keys(caps).length > 0))
      throw new HubError(
        'CONSENT_UNAVAILABLE',
        `Nothing changed: this widens what the agent reaches on "${record.name}" (${widens.join('; ')}), which needs the user, and this client cannot ask them (no elicitation support).`,
      );
    let answer;
    try {
      answer = await server.elicitInput(
        {
          message: [
            `The agent asks to change MCP server "${record.name}" in every hub:`,
            ...widens.map(line => `- ${line}`),
            'Approve?',
          ].join('\n'),
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Approve', default: false } },
            required: ['approve'],
          },
        },
        { timeout: CONSENT_TIMEOUT_MS, signal },
      );
    } catch (error) {
      if (signal.aborted)
        throw new HubError('CANCELLED', `The call was cancelled; nothing changed on "${record.name}".`, {
          cause: error,
        });
      throw new HubError('CONSENT_UNAVAILABLE', `Nothing changed: asking the user failed (${errorMessage(error)}).`, {
        cause: error,
      });
    }
    if (answer.action === 'cancel')
      throw new HubError('CONSENT_UNAVAILABLE', 'Nothing changed: the question was closed unanswered.');
    if (answer.action !== 'accept' || answer.content?.approve !== true)
      throw new HubError(
        'CONSENT_DECLINED',
        `The user did not approve this change of "${record.name}"; nothing changed. Ask the user before trying again.`,
      );
  };
}
