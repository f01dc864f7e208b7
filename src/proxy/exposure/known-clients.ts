// The one table of MCP clients hub knows by the name they send in initialize (clientInfo.name),
// and what exposure `auto` does for each (docs/exposure.md "Many servers, few tools" shows this table).
// Zod-free and SDK-free: the cold-start lane reads it too.

export interface ClientProfile {
  /** Who this is, for logs and docs/exposure.md. */
  readonly label: string;
  /** The client hides MCP tools behind its own tool search (or shows them to a person): hub lists every tool. */
  readonly defers: boolean;
  /** Most tools the client uses well (or accepts) in one request, all servers together. */
  readonly budget: number;
  /**
   * The client lists tools again on notifications/tools/list_changed, so a tool hub adds to its
   * list mid-session can be called by name. Unknown means no: registry_call works in every client.
   */
  readonly relists: boolean;
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
// `relists` as each client was seen to behave (docs/exposure.md "Many servers, few tools").
const KNOWN_CLIENTS: readonly KnownClient[] = [
  // Defers MCP tools behind its tool search once they pass a share of the context; re-lists since 2.1.
  { label: 'Claude Code', pattern: /^claude[- ]code/i, defers: true, budget: Infinity, relists: true },
  // Defers every MCP tool behind tool_search; keeps the list it got at start.
  { label: 'Codex', pattern: /^codex/i, defers: true, budget: Infinity, relists: false },
  // Sends every tool to Gemini, which takes at most 128 declarations a request, its own ~15 among them.
  { label: 'Gemini CLI', pattern: /^gemini[- ]cli/i, defers: false, budget: 100, relists: true },
  // Stops using tools past about 40 (warns at 80); keeps the list it got at start.
  { label: 'Cursor', pattern: /^cursor/i, defers: false, budget: 40, relists: false },
  // Caps a request at 128 tools; re-lists on list_changed.
  { label: 'VS Code', pattern: /^(visual[- ]studio[- ]code|vscode)/i, defers: false, budget: 128, relists: true },
  // Caps a request at 100 tools.
  { label: 'Windsurf', pattern: /windsurf|codeium/i, defers: false, budget: 100, relists: false },
  // Sends every tool to the model in each turn: the default budget.
  { label: 'Claude Desktop', pattern: /^claude-ai/i, defers: false, budget: DEFAULT_BUDGET, relists: false },
  {
    label: 'framework client (AI SDK, LangChain, mcp-use)',
    pattern: /^(ai-sdk|langchain|mcp-use)/i,
    defers: false,
    budget: DEFAULT_BUDGET,
    relists: false,
  },
  // A person reads the list (no model context to spare): every tool.
  { label: 'MCP Inspector', pattern: /^(mcp-)?inspector/i, defers: true, budget: Infinity, relists: false },
];

/** What hub knows of the client that sent this name (an unknown one gets the capped default). */
export function clientProfile(name: string | undefined): ClientProfile & { readonly known: boolean } {
  // Bounded: a client name is matched on its first 100 characters only.
  const clipped = (name ?? '').slice(0, 100);
  const known = KNOWN_CLIENTS.find(client => client.pattern.test(clipped));
  if (known)
    return { label: known.label, defers: known.defers, budget: known.budget, relists: known.relists, known: true };
  return {
    label: clipped === '' ? 'unnamed client' : 'unknown client',
    defers: false,
    budget: DEFAULT_BUDGET,
    relists: false,
    known: false,
  };
}

/** The table as docs/exposure.md prints it (test/proxy/exposure.test.ts keeps them in step). */
export const knownClientRows = (): readonly { label: string; names: string; auto: string; relists: string }[] =>
  KNOWN_CLIENTS.map(client => ({
    label: client.label,
    names: client.pattern.source,
    auto: client.defers ? 'all' : `${client.budget} tools`,
    relists: client.relists ? 'yes' : 'no',
  }));
