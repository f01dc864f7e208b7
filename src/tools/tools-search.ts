// tools.search: the proxied tools a session does not list, found by what the agent wants to do.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HubError } from '../core/errors.js';
import { spellText, type NameMode } from '../core/naming.js';
import type { ExposurePlan } from '../proxy/exposure/plan.js';
import type { ExposureSession } from '../proxy/exposure/session.js';
import type { Route, RouteTable } from '../proxy/listing/routes.js';
import { buildToolIndex, type ToolIndex } from '../proxy/exposure/tool-search.js';
import { defineTool, type HubTool } from './define.js';

// tools.search: the proxied tools a session does not list, found by what the agent wants to do
// (docs/exposure.md "Many servers, few tools"). Listed only when something is hidden (proxy/exposure/plan.ts).

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 10;
// Bounds on one result, so ten results stay a few KB whatever a server's schemas hold.
const DESCRIPTION_CHARS = 400;
const SCHEMA_BYTES = 3_000;
// Bounds on the server summary in the description (the goal: tools.search adds < 4 KB).
const SUMMARY_CHARS = 1_600;
const EXAMPLE_TOOLS = 3;

const InputSchema = z.strictObject({
  query: z.string().trim().min(1).max(200).describe('What you want to do, in a few words: "open a pull request"'),
  server: z.string().min(1).max(100).optional().describe('Only this installed server'),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Most results (max ${MAX_LIMIT})`),
});

const ResultSchema = z.object({
  call: z
    .string()
    .describe('How to call it in your client: its name (listed) or registry.call {server, tool, arguments}'),
  listed: z.boolean().describe('In your tool list: callable by its name'),
  name: z.string().describe('Its name in hub (callable by it only when listed)'),
  server: z.string(),
  tool: z.string().describe("The server's own name (registry.call)"),
  title: z.string().optional(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
});

const OutputSchema = z.object({
  results: z.array(ResultSchema),
  hidden: z.number().int().describe('Tools not in your list, reachable through this search'),
  next: z.string(),
});

type Json = Record<string, unknown>;

/** A schema as listed, or its property names and types when it is too big to repeat here. */
function boundedSchema(schema: Tool['inputSchema']): Json {
  if (Buffer.byteLength(JSON.stringify(schema)) <= SCHEMA_BYTES) return schema as Json;
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, Json>)
      .slice(0, 40)
      .map(([key, value]) => [key, { type: value?.type ?? 'any' }]),
  );
  return {
    type: 'object',
    properties,
    ...(schema.required && { required: schema.required }),
    $comment: 'shortened: registry.list {server} has the whole schema',
  };
}

/** "github (26 tools: create_issue, …); memory (9 tools: …)": what the installed servers do, bounded. */
export function serverSummary(scope: readonly Route[]): string {
  const byServer = new Map<string, Route[]>();
  for (const route of scope) byServer.set(route.server, [...(byServer.get(route.server) ?? []), route]);
  const parts: string[] = [];
  let length = 0;
  for (const [server, routes] of byServer) {
    const examples = routes.slice(0, EXAMPLE_TOOLS).map(route => route.tool.slice(0, 40));
    const part = `${server} (${routes.length} tools: ${examples.join(', ')}${routes.length > EXAMPLE_TOOLS ? ', …' : ''})`;
    if (length + part.length > SUMMARY_CHARS) {
      parts.push(`and ${byServer.size - parts.length} more servers (registry.list)`);
      break;
    }
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('; ');
}

/** What works in the client that asks: its own list by name when it lists again on list_changed. */
const howToCall = (relists: boolean): string =>
  relists
    ? 'Results join your tool list: call them by name.'
    : 'Call a result with registry.call {server, tool, arguments}: your client keeps its first tool list.';

/** tools.search as listed for this scope and client: the base entry with how to call and the installed servers. */
export function searchEntryFor(
  base: Record<NameMode, Tool>,
  scope: readonly Route[],
  plan: Pick<ExposurePlan, 'relists'>,
): Record<NameMode, Tool> {
  const summary = serverSummary(scope);
  const entry = (mode: NameMode): Tool => ({
    ...base[mode],
    description: `${base[mode].description} ${spellText(howToCall(plan.relists), mode)} Installed: ${summary}.`,
  });
  return { dotted: entry('dotted'), underscore: entry('underscore') };
}

// One index per scope (a new scope comes with a new routing table or project), shared by sessions.
const indexes = new WeakMap<RouteTable['routes'], ToolIndex<Route>>();
const indexOf = (routes: RouteTable['routes']): ToolIndex<Route> => {
  let index = indexes.get(routes);
  if (!index) indexes.set(routes, (index = buildToolIndex(routes)));
  return index;
};

/** Builds the scope's index soon, off the request (1,000 tools take ~0.3 s): the first search is then quick. */
export function warmSearchIndex(scope: readonly Route[]): void {
  setTimeout(() => indexOf(scope), 0).unref();
}

/** What to do with the results, as the client that asked can. */
function nextStep(results: readonly { call: string; listed: boolean; server: string; tool: string }[]): string {
  const first = results[0];
  if (!first) return 'Nothing matched: try other words, or registry.list {server} to see every tool of a server.';
  if (results.every(result => result.listed))
    return `They are in your tool list now: call one by its name (e.g. ${first.call}) with arguments matching its input_schema.`;
  const example = results.find(result => !result.listed)!;
  const named = results.filter(result => result.listed).map(result => result.call);
  return `${named.length > 0 ? `Call ${named.join(', ')} by name; the others with ` : 'Call a result with '}registry.call {server: "${example.server}", tool: "${example.tool}", arguments} (arguments matching its input_schema): your tool list does not have ${named.length > 0 ? 'them' : 'these names'}.`;
}

export function createToolsSearchTool(options: { session: () => ExposureSession; mode: NameMode }): HubTool {
  return defineTool({
    name: 'tools.search',
    title: 'Search the installed tools',
    description:
      'Find tools of installed servers not in your tool list, by what you want to do, with their input schemas.',
    input: InputSchema,
    output: OutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run({ query, server, limit }) {
      const session = options.session();
      const { scope, plan } = session.view();
      const servers = new Set(scope.map(route => route.server));
      if (server !== undefined && !servers.has(server))
        throw new HubError(
          'NOT_FOUND',
          `Field "server": "${server}" is not an installed server${servers.size > 0 ? ` here (${[...servers].join(', ')})` : ''}; registry.list shows them.`,
        );
      const hits = indexOf(scope).search(query, {
        limit,
        ...(server !== undefined && { keep: route => route.server === server }),
      });
      // A client that lists again gets the hits in its list, announced before this result (hub.ts
      // holds the result until it re-listed); any other can call only what it listed at start.
      if (plan.relists && hits.length > 0) session.add(hits.map(hit => hit.route));
      const { selection } = session.view();
      const listed = new Set(selection.listed);
      const results = hits.map(({ route }) => {
        const tool = route.listed.dotted;
        const byName = plan.relists && listed.has(route);
        return {
          call: byName
            ? route[options.mode]
            : spellText(`registry.call {server: "${route.server}", tool: "${route.tool}", arguments}`, options.mode),
          listed: byName,
          name: route[options.mode],
          server: route.server,
          tool: route.tool,
          ...(tool.title !== undefined && { title: tool.title }),
          description: (tool.description ?? '').replace(/^\[[^\]]*\]\s*/, '').slice(0, DESCRIPTION_CHARS),
          input_schema: boundedSchema(tool.inputSchema),
        };
      });
      const next = nextStep(results);
      const lines = results.map(result => `${result.call} — ${result.description.split('\n')[0]?.slice(0, 120) ?? ''}`);
      const text = `${results.length === 0 ? 'No matching tools.' : lines.join('\n')}\n${spellText(next, options.mode)}`;
      return Promise.resolve({ structured: { results, hidden: selection.hidden, next }, text });
    },
  });
}
