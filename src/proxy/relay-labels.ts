import type { CreateMessageRequest, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';

// A child's requests to the person go out under its name, so no child can pass for hub itself
// (for example by copying hub's install-consent prompt word for word).

/** What the person reads first: which installed server asks. */
export const serverPrefix = (server: string): string => `[server ${server}]`;

export interface RelayLabels {
  elicitation(params: ElicitRequest['params']): ElicitRequest['params'];
  sampling(params: CreateMessageRequest['params']): CreateMessageRequest['params'];
}

/** Labels each relayed request; `admit` throws when the request may not be relayed now. */
export function relayLabels(server: string, admit: () => void): RelayLabels {
  const prefix = serverPrefix(server);
  return {
    elicitation(params) {
      admit();
      return { ...params, message: `${prefix} ${params.message}` };
    },
    sampling(params) {
      admit();
      const origin = `${prefix} This request comes from the MCP server "${server}", relayed by hub.`;
      return { ...params, systemPrompt: params.systemPrompt ? `${origin}\n\n${params.systemPrompt}` : origin };
    },
  };
}
