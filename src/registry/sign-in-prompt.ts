import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const PROMPT_TIMEOUT_MS = 10 * 60_000;

/**
 * Asks the client to open a sign-in URL (URL-mode elicitation) where it can; the tool result
 * carries the URL either way, so nothing waits for this answer.
 */
export function urlSignInPrompt(server: Server): (name: string, url: string) => void {
  return (name, url) => {
    if (server.getClientCapabilities()?.elicitation?.url === undefined) return;
    server
      .elicitInput(
        {
          mode: 'url',
          message: `Sign in to ${name} so hub can use its tools.`,
          url,
          elicitationId: randomUUID(),
        },
        { timeout: PROMPT_TIMEOUT_MS },
      )
      .catch(() => undefined);
  };
}
