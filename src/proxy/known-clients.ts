// The one table of MCP clients hub knows by the name they send in initialize (clientInfo.name),
// and what exposure `auto` does for each (README "Many servers, few tools" shows this table).
// Zod-free and SDK-free: the cold-start lane reads it too.

export interface ClientProfile {
  /** Who this is, for logs and the README. */
  readonly label: string;
  /** The client hides MCP tools behind its own tool search: hub lists every tool. */
  readonly defers: boolean;
  /** Most tools the client uses well (or accepts) in one request, all servers together. */
  readonly budget: number;
}

interface KnownClient extends ClientProfile {
  readonly pattern: RegExp;
}

/**
 * Clients whose name says nothing (and framework clients: AI SDK, LangChain, Mastra, mcp-use send
 * every tool to the model, and Mastra sends the user's own config key): 40, the lowest cap a
 * popular client has (Cursor), so hub fits anywhere, and model tool choice degrades past a few dozen.
 */
export const DEFAULT_BUDGET = 40;

// Budgets count every tool the client sees; hub spends its share on its own tools first.
const KNOWN_CLIENTS: readonly KnownClient[] = [
  // Defers MCP tools behind its tool search once they pass a share of the context.
  { label: 'Claude Code', pattern: /^claude[- ]code/i, defers: true, budget: Infinity },
  // Defers every MCP tool behind tool_search.
  { label: 'Codex', pattern: /^codex/i, defers: true, budget: Infinity },
  // Stops using tools past about 40 (warns at 80).
  { label: 'Cursor', pattern: /^cursor/i, defers: false, budget: 40 },
  // Caps a request at 128 tools.
  { label: 'VS Code', pattern: /^(visual[- ]studio[- ]code|vscode)/i, defers: false, budget: 128 },
  // Caps a request at 100 tools.
  { label: 'Windsurf', pattern: /windsurf|codeium/i, defers: false, budget: 100 },
  {
    label: 'framework client (AI SDK, LangChain, mcp-use)',
    pattern: /^(ai-sdk|langchain|mcp-use)/i,
    defers: false,
    budget: DEFAULT_BUDGET,
  },
];

/** What hub knows of the client that sent this name (an unknown one gets the capped default). */
export function clientProfile(name: string | undefined): ClientProfile & { readonly known: boolean } {
  // Bounded: a client name is matched on its first 100 characters only.
  const clipped = (name ?? '').slice(0, 100);
  const known = KNOWN_CLIENTS.find(client => client.pattern.test(clipped));
  if (known) return { label: known.label, defers: known.defers, budget: known.budget, known: true };
  return {
    label: clipped === '' ? 'unnamed client' : 'unknown client',
    defers: false,
    budget: DEFAULT_BUDGET,
    known: false,
  };
}

/** The table as the README prints it (test/proxy/exposure.test.ts keeps them in step). */
export const knownClientRows = (): readonly { label: string; names: string; auto: string }[] =>
  KNOWN_CLIENTS.map(client => ({
    label: client.label,
    names: client.pattern.source,
    auto: client.defers ? 'all' : `${client.budget} tools`,
  }));
