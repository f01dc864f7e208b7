// The prompt routing table: every server's prompts named as tools are, and where prompts/get goes.
import type { NameMode } from '../../core/naming.js';
import type { CachedPrompt, ServerWithTools } from '../../store/schema.js';
import { exposeNames } from './routes.js';

type Json = Record<string, unknown>;

/** One proxied prompt: its exposed names and where prompts/get goes. Never parsed back from a name. */
export interface PromptRoute {
  readonly server: string;
  /** The child's own prompt name, sent to it unchanged. */
  readonly prompt: string;
  readonly dotted: string;
  readonly underscore: string;
}

export interface PromptTable {
  /** Exposed name in either spelling → route. */
  readonly byName: ReadonlyMap<string, PromptRoute>;
  readonly lists: Record<NameMode, Json[]>;
  /** Changes whenever what prompts/list shows changes (list_changed is sent then). */
  readonly signature: string;
}

// Arguments, title, icons and _meta stay as the child gave them; the exposed name is in `name` only.
function listedPrompt(server: string, cached: CachedPrompt, name: string): Json {
  const description = cached.description ? `[${server}] ${cached.description}` : `[${server}]`;
  return { ...cached, name, description };
}

/**
 * The prompts of every server under the same naming rules, budget and collision handling as
 * tools (routes.ts exposeNames). Prompts are their own namespace: a prompt may share a name with
 * a tool, as it may in any one server.
 */
export function buildPromptRoutes(records: readonly ServerWithTools[]): PromptTable {
  const byName = new Map<string, PromptRoute>();
  const lists: Record<NameMode, Json[]> = { dotted: [], underscore: [] };
  for (const entry of exposeNames(records, record => record.surface?.prompts ?? [], listedPrompt)) {
    const route = { server: entry.server, prompt: entry.item.name, dotted: entry.dotted, underscore: entry.underscore };
    byName.set(entry.dotted, route);
    byName.set(entry.underscore, route);
    if (!entry.inBudget) continue;
    lists.dotted.push(entry.listed.dotted);
    lists.underscore.push(entry.listed.underscore);
  }
  return { byName, lists, signature: JSON.stringify(lists.dotted) };
}
