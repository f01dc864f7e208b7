// The inputs and outputs of the registry tools: the zod schemas hub lists and validates with.
import { z } from 'zod';
import { ServerSummarySchema, ToolDetailSchema } from '../registry/installed.js';
import { IntegrityReportSchema } from '../registry/tool-review.js';
import { ServerSettingsSchema, ToolIssueSchema } from '../store/schema.js';

const ServerNameFieldSchema = z.string().min(1).max(64);

export const InstallInputSchema = z.strictObject({
  package: z
    .string()
    .optional()
    .describe(
      'npm package, optionally with a version or tag: "@modelcontextprotocol/server-memory", "x@1.2.3". No paths, URLs or git specs',
    ),
  command: z
    .string()
    .optional()
    .describe('Instead of package: a program on PATH or an absolute path, run with args; nothing is installed'),
  url: z
    .string()
    .optional()
    .describe("Instead of package: a remote server's URL (Streamable HTTP or HTTP+SSE); a sign-in gives a URL to open"),
  official: z
    .string()
    .optional()
    .describe('Instead of package: an official MCP Registry name from registry.search (e.g. "io.github.x/weather")'),
  kind: z
    .enum(['npm', 'pypi', 'oci', 'mcpb', 'remote'])
    .optional()
    .describe('With official: which package or remote (default: the first this machine can run)'),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      'With url: HTTP headers, e.g. {"Authorization": "Bearer ${TOKEN}"} (${VAR} reads env); secrets, never shown',
    ),
  transport: z
    .enum(['streamable-http', 'sse'])
    .optional()
    .describe('With url: default Streamable HTTP, falling back to HTTP+SSE'),
  name: z
    .string()
    .optional()
    .describe(
      'Server name, the prefix of its tools (1–20 chars, lowercase, e.g. "memory"); derived from the package when omitted',
    ),
  args: z
    .array(z.string())
    .optional()
    .describe('Arguments for the server (default: the catalog default for known packages)'),
  env: z
    .record(z.string(), z.string())
    .optional()
    .describe('Env vars for the server (API keys); kept in ~/.hub/db.json, never shown'),
  start: z.boolean().optional().describe('Start it now and list its tools (default true)'),
  // Listed as a plain list (no anyOf: LangChain drops union types); true and false, as the
  // issue's API has them, are still taken: true = ["*"] (every package), false = none.
  allowScripts: z
    .preprocess(value => (value === true ? ['*'] : value === false ? [] : value), z.array(z.string().min(1)))
    .optional()
    .describe(
      'Packages allowed to run npm install scripts (off by default), e.g. ["sqlite3"]; ["*"] for all. Approved with the install, reused by upgrades; the result lists skipped scripts',
    ),
  upgrade: z
    .boolean()
    .optional()
    .describe('Installed package: replace it with the version in package (default latest), keeping env, args and data'),
});

export const ListInputSchema = z.strictObject({
  server: ServerNameFieldSchema.optional().describe(
    "Show this server's tools with descriptions and input schemas (starts it only if its tools are not cached yet)",
  ),
});
export const ListOutputSchema = z.object({
  servers: z.array(ServerSummarySchema),
  tools: z.array(ToolDetailSchema).optional().describe('With server: its tools, for registry.call'),
  toolIssues: z
    .array(ToolIssueSchema)
    .optional()
    .describe("With server: tools hub skipped or cut when it read the server's list, and why"),
  settings: ServerSettingsSchema.optional().describe('With server: its settings (registry.configure)'),
  integrity: IntegrityReportSchema.optional().describe(
    'With server: changed tools awaiting approval, injection markers',
  ),
  next: z.string(),
});

export const UninstallInputSchema = z.strictObject({
  name: ServerNameFieldSchema.describe('The installed server to remove, as registry.list shows it'),
  purge: z
    .boolean()
    .optional()
    .describe(
      "Also delete its data folder (~/.hub/data/<name>, e.g. server-memory's graph); kept by default for a later install",
    ),
});
export const UninstallOutputSchema = z.object({
  name: z.string(),
  removedTools: z.array(z.string()),
  folderRemoved: z.string().optional(),
  dataKept: z.string().optional().describe('Its data folder, kept: a later install under the same name uses it again'),
  dataRemoved: z.string().optional().describe('Its data folder, deleted (purge)'),
  logFile: z.string().describe('Kept for inspection; delete it by hand if not needed'),
  next: z.string().describe('What to call next'),
});

export const CallInputSchema = z.strictObject({
  server: ServerNameFieldSchema.describe('Installed server name, as registry.list shows it'),
  tool: z
    .string()
    .min(1)
    .describe(
      'The tool name as the server gives it (registry.list { server } shows them), without the server prefix hub adds',
    ),
  arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments, matching its input schema"),
});
// Whatever the child returns: its structuredContent, or { content } when it gave none.
export const CallOutputSchema = z.looseObject({});
