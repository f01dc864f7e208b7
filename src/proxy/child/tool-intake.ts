// What hub takes from a child's tools/list: each tool and the whole list bounded, issues kept.
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { CachedToolSchema, type CachedTool, type ToolIssue } from '../../store/schema.js';
import { appMetaProblem, withoutAppMeta } from '../listing/apps.js';

/**
 * What hub takes from one child's tools/list. One child must not be able to push hub's own
 * tools/list past what a client accepts (the SDK reads messages up to 10 MiB, and every byte is
 * model context), so each tool and each server is bounded; what is left out is reported.
 */
export const TOOL_LIMITS = {
  /** Tools per server (real servers have up to ~100). */
  maxTools: 500,
  /** Longer descriptions are cut, with a marker saying so. */
  descriptionBytes: 8 * 1024,
  /**
   * One tool's inputSchema as JSON; a bigger tool is skipped (a cut schema would lie, and a tool
   * cannot be called right without it). The largest published one met is 6.2 KB
   * (brave_llm_context, @brave/brave-search-mcp-server 2.1.4): about 10 times that.
   */
  inputSchemaBytes: 64 * 1024,
  /**
   * One tool's outputSchema as JSON; a bigger one is left out and the tool kept (a tool without
   * an output schema is valid; its results are then not checked against one). The largest
   * published one met is 71 KB (brave_place_search, same package): over 3 times that.
   */
  outputSchemaBytes: 256 * 1024,
  /** Everything taken from one server, as JSON. */
  serverBytes: 1024 * 1024,
  /** Issues kept per server; the rest are summed up in one line. */
  maxIssues: 50,
} as const;

export type ToolLimits = { readonly [K in keyof typeof TOOL_LIMITS]: number };

export interface ToolIntake {
  tools: CachedTool[];
  issues: ToolIssue[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const CUT_MARKER = (bytes: number) => ` … [cut by hub: the description was ${bytes} bytes]`;

/** A schema with a missing `type` given "object" (server-gitlab sends `$schema` and no type); anything else as it is. */
function objectSchema(value: unknown, field: string): Json | string {
  if (!isObject(value)) return `${field} is ${value === undefined ? 'missing' : 'not a JSON object'}`;
  if (value.type === undefined) return { type: 'object', ...value };
  if (value.type !== 'object')
    return `${field}.type is ${JSON.stringify(value.type)}, but MCP requires an object schema ("type": "object")`;
  return value;
}

function cutDescription(description: string, limit: number): string {
  const bytes = Buffer.byteLength(description);
  const marker = CUT_MARKER(bytes);
  const room = Math.max(0, limit - Buffer.byteLength(marker));
  return (
    Buffer.from(description)
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD$/, '') + marker
  );
}

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** One entry of the child's list as hub will list it, or why it cannot be. */
function takeOne(entry: unknown, limits: ToolLimits): { tool: CachedTool; trimmed: string[] } | string {
  if (!isObject(entry)) return 'the entry is not a JSON object';
  const tool: Json = { ...entry };
  const input = objectSchema(entry.inputSchema, 'inputSchema');
  if (typeof input === 'string') return input;
  const inputBytes = jsonBytes(input);
  if (inputBytes > limits.inputSchemaBytes)
    return `its inputSchema is ${inputBytes} bytes, over hub's limit of ${limits.inputSchemaBytes} bytes per tool`;
  tool.inputSchema = input;
  const trimmed: string[] = [];
  if (entry.outputSchema !== undefined) {
    const output = objectSchema(entry.outputSchema, 'outputSchema');
    if (typeof output === 'string') return output;
    const outputBytes = jsonBytes(output);
    if (outputBytes > limits.outputSchemaBytes) {
      delete tool.outputSchema;
      trimmed.push(
        `outputSchema left out: it is ${outputBytes} bytes, over hub's limit of ${limits.outputSchemaBytes} bytes per tool; the tool works, its results are not checked against a schema`,
      );
    } else tool.outputSchema = output;
  }
  if (typeof entry.description === 'string' && Buffer.byteLength(entry.description) > limits.descriptionBytes) {
    tool.description = cutDescription(entry.description, limits.descriptionBytes);
    trimmed.push(
      `description cut to ${limits.descriptionBytes} bytes (it was ${Buffer.byteLength(entry.description)})`,
    );
  }
  // A malformed _meta.ui reaches no host: the tool is listed plain, the same to every session.
  const appProblem = appMetaProblem(tool);
  if (appProblem !== undefined) trimmed.push(`${appProblem}; the tool is listed without its MCP Apps metadata`);
  const plain = appProblem === undefined ? tool : withoutAppMeta(tool);
  // What every MCP client checks: a tool failing it would make a client reject hub's whole list.
  const valid = ToolSchema.safeParse(plain);
  if (!valid.success) {
    const issue = valid.error.issues[0];
    return `${issue?.path.join('.') || 'the tool'}: ${issue?.message ?? 'not a valid MCP tool'}`;
  }
  const cached = CachedToolSchema.safeParse(plain);
  if (!cached.success) return 'not a valid MCP tool';
  return { tool: cached.data, trimmed };
}

const nameOf = (entry: unknown, index: number): string =>
  isObject(entry) && typeof entry.name === 'string' && entry.name !== '' ? entry.name.slice(0, 200) : `#${index + 1}`;

/**
 * Reads each entry of a child's tools/list on its own: a bad tool is skipped with its reason and
 * never takes the others with it; the limits above are applied in the child's order.
 */
export function takeTools(entries: readonly unknown[], limits: ToolLimits = TOOL_LIMITS): ToolIntake {
  const tools: CachedTool[] = [];
  const issues: ToolIssue[] = [];
  const seen = new Set<string>();
  const overLimit: string[] = [];
  let bytes = 0;
  entries.forEach((entry, index) => {
    const name = nameOf(entry, index);
    const skip = (reason: string) => issues.push({ tool: name, action: 'skipped', reason });
    if (!isObject(entry) || typeof entry.name !== 'string' || entry.name === '') return skip('it has no name');
    if (seen.has(entry.name)) return skip('the server lists this name twice; the first one is kept');
    const taken = takeOne(entry, limits);
    if (typeof taken === 'string') return skip(taken);
    let size = jsonBytes(taken.tool);
    // Past the server's bytes, a tool still fits without its outputSchema: kept so, and said.
    if (bytes + size > limits.serverBytes && taken.tool.outputSchema !== undefined) {
      const { outputSchema: _left, ...bare } = taken.tool;
      const bareSize = jsonBytes(bare);
      if (bytes + bareSize <= limits.serverBytes) {
        taken.tool = bare;
        taken.trimmed.push(
          `outputSchema left out: the server's tools are over hub's limit of ${limits.serverBytes} bytes with it; the tool works, its results are not checked against a schema`,
        );
        size = bareSize;
      }
    }
    if (tools.length >= limits.maxTools || bytes + size > limits.serverBytes) return overLimit.push(name);
    seen.add(entry.name);
    bytes += size;
    tools.push(taken.tool);
    for (const reason of taken.trimmed) issues.push({ tool: name, action: 'trimmed', reason });
  });
  const kept = issues.slice(0, limits.maxIssues);
  if (issues.length > kept.length)
    kept.push({ tool: '…', action: 'skipped', reason: `${issues.length - kept.length} more issues not shown` });
  if (overLimit.length > 0) {
    kept.push({
      tool: overLimit.length === 1 ? (overLimit[0] ?? '') : `${overLimit[0]} … ${overLimit.at(-1)}`,
      action: 'skipped',
      reason: `${overLimit.length} tools over hub's limit of ${limits.maxTools} tools or ${limits.serverBytes} bytes per server`,
    });
  }
  return { tools, issues: kept };
}

// The issues ride along with the list they belong to, so the slot code between listing and
// caching (server-slot.ts) passes them on without a second channel.
const issuesByList = new WeakMap<readonly CachedTool[], ToolIssue[]>();

export function noteIssues(tools: CachedTool[], issues: ToolIssue[]): CachedTool[] {
  issuesByList.set(tools, issues);
  return tools;
}

/** What takeTools skipped or cut for this list (empty for lists that did not come from it). */
export const issuesOf = (tools: readonly CachedTool[]): ToolIssue[] => issuesByList.get(tools) ?? [];

/** Whether two JSON values are the same, compared canonically (key order ignored). */
export const sameJson = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** Whether two tool lists are the same, compared canonically (key order ignored). */
export const sameTools = (a: readonly CachedTool[], b: readonly CachedTool[]): boolean =>
  a.length === b.length && canonicalJson(a) === canonicalJson(b);
