// The inputs and outputs of the registry tools: the zod schemas hub lists and validates with.
import { z } from 'zod';
import { ServerSummarySchema, ToolDetailSchema } from '../registry/installed/servers.js';
import { IntegrityReportSchema } from '../registry/decisions/tool-review.js';
import { ServerSettingsSchema, ToolIssueSchema } from '../store/schema.js';

const ServerNameFieldSchema = z.string().min(1).max(64);

export const InstallInputSchema = z.strictObject({
  package: z.string().optional().describe('npm package[@version|tag], e.g. "@modelcontextprotocol/server-memory"'),
  command: z.string().optional().describe('Or: a program on PATH or an absolute path (nothing installed)'),
  url: z.string().optional().describe("Or: a remote server's URL (Streamable HTTP or SSE)"),
  official: z.string().optional().describe('Or: an official MCP Registry name, from registry.search'),
  kind: z
    .enum(['npm', 'pypi', 'oci', 'mcpb', 'remote'])
    .optional()
    .describe('With official: which package (default: first runnable)'),
  headers: z.record(z.string(), z.string()).optional().describe('With url: HTTP headers (secret; ${VAR} reads env)'),
  transport: z.enum(['streamable-http', 'sse']).optional().describe('With url (default: Streamable HTTP, then SSE)'),
  name: z.string().optional().describe('Tool prefix, 1–20 lowercase chars (default: from the package)'),
  args: z.array(z.string()).optional().describe('Server arguments'),
  env: z.record(z.string(), z.string()).optional().describe('Env vars (API keys); secret, never shown'),
  start: z.boolean().optional().describe('Start now (default true)'),
  // Listed as a plain list (no anyOf: LangChain drops union types); true and false, as the
  // issue's API has them, are still taken: true = ["*"] (every package), false = none.
  allowScripts: z
    .preprocess(value => (value === true ? ['*'] : value === false ? [] : value), z.array(z.string().min(1)))
    .optional()
    .describe('Packages allowed to run install scripts (off by default), e.g. ["sqlite3"], ["*"]'),
  upgrade: z
    .boolean()
    .optional()
    .describe("Installed: move to package's version (default latest), keeping settings and data"),
});

export const ListInputSchema = z.strictObject({
  server: ServerNameFieldSchema.optional().describe("This server's tools with input schemas"),
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
  sandbox: z.record(z.string(), z.unknown()).optional().describe('With server: its sandbox policy in force'),
  next: z.string(),
});

export const UninstallInputSchema = z.strictObject({
  name: ServerNameFieldSchema.describe('Installed server name'),
  purge: z.boolean().optional().describe('Also delete its data folder (~/.hub/data/<name>)'),
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
  server: ServerNameFieldSchema.describe('Installed server name'),
  tool: z.string().min(1).describe('Tool name without the server prefix'),
  arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments"),
});
