// The MCP clients hub knows, by id, and found by the names people type.
import { HubError } from '../core/errors.js';
import { claudeCode, claudeDesktop } from './claude.js';
import { codex, gemini } from './cli-agents.js';
import { cursor, vscode, windsurf } from './editors.js';
import { ClientIdSchema, type ClientId, type ClientSpec } from './types.js';

export const CLIENTS: Record<ClientId, ClientSpec> = {
  'claude-code': claudeCode,
  'claude-desktop': claudeDesktop,
  cursor,
  vscode,
  codex,
  windsurf,
  gemini,
};

// Names people type for the same client.
const ALIASES: Record<string, ClientId> = {
  claude: 'claude-code',
  'claude-ai': 'claude-desktop',
  desktop: 'claude-desktop',
  code: 'vscode',
  'vs-code': 'vscode',
  'gemini-cli': 'gemini',
};

export function findClient(name: string | undefined): ClientSpec {
  const key = (name ?? '').toLowerCase();
  const id = ClientIdSchema.safeParse(ALIASES[key] ?? key);
  if (!id.success) {
    throw new HubError(
      'INVALID_INPUT',
      `Unknown client "${name ?? ''}": use one of ${ClientIdSchema.options.join(', ')}.`,
    );
  }
  return CLIENTS[id.data];
}
