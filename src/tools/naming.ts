export type NameMode = 'dotted' | 'underscore';

// Clients known to reject dots in tool names (^[a-zA-Z0-9_-]{1,64}$), by clientInfo.name:
// Claude Desktop ("claude-ai"), GitHub Copilot CLI, OpenAI-API-backed hosts, older Codex.
const UNDERSCORE_CLIENTS = [/^claude-ai$/i, /copilot/i, /openai/i, /chatgpt/i, /codex/i];

export function pickNameMode(setting: 'dotted' | 'underscore' | 'auto', clientName: string | undefined): NameMode {
  if (setting !== 'auto') return setting;
  return clientName !== undefined && UNDERSCORE_CLIENTS.some(pattern => pattern.test(clientName)) ? 'underscore' : 'dotted';
}

/** The name hub lists for a dotted name in the given mode (every `.` hub adds becomes `_`). */
export const spell = (dotted: string, mode: NameMode): string => (mode === 'underscore' ? dotted.replaceAll('.', '_') : dotted);
