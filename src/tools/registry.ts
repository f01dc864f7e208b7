// The registry tools (search, install, list, uninstall, call) over the server manager.
import { createServerManager, type ServerManager } from '../proxy/server-manager.js';
import { RpcError, childError } from '../wire/rpc-error.js';
import type { ProxiedTools, ServerExtra } from '../proxy/types.js';
import { readPendingInstall, type PendingInstall } from '../registry/install/background.js';
import {
  describeServer,
  exposedSpelling,
  missingEnvNext,
  uninstallServer,
  withOtherHubs,
} from '../registry/installed/servers.js';
import { readToolIssues } from '../store/tool-cache.js';
import { createSearchTool } from './registry-search.js';
import { createConfigureTool, settingsView } from './registry-configure.js';
import { installTool } from './registry-install.js';
import { serverListResult, type ServerListResult } from './server-list.js';
import { pickNameMode, spellText, type NameMode } from '../core/naming.js';
import { defineTool, type HubTool, type ToolDeps, type ToolGroup } from './define.js';
import {
  CallInputSchema,
  ListInputSchema,
  ListOutputSchema,
  UninstallInputSchema,
  UninstallOutputSchema,
} from './registry-schemas.js';

type Spell = (dotted: string) => string;

/** registry.list { server } for an install that has no record yet: its step, or why it failed. */
function pendingInstallResult(pending: PendingInstall) {
  const next =
    pending.state === 'installing'
      ? `${pending.name} (${pending.package}) is still installing: ${pending.step}. Ask again later; tools/list_changed announces its tools.`
      : `The install of ${pending.name} (${pending.package}) failed: ${pending.step}`;
  return { structured: { servers: [], next }, text: next };
}

/** registry.list { server }: its tools with schemas, settings, changed tools, and what to do next. */
async function oneServerResult(
  deps: ToolDeps,
  manager: ServerManager,
  mode: NameMode,
  name: string,
  pending: PendingInstall | undefined,
) {
  const { config, store } = deps;
  const described = await describeServer(name, mode, store, config.paths, manager);
  const summary = withOtherHubs(described.summary, config.paths);
  const toolIssues = readToolIssues(config.paths, summary.name);
  // Settings, changed tools waiting for approval and injection markers (registry-configure.ts).
  const review = settingsView(config, (await store.read()).servers[summary.name]);
  const tools = described.tools.filter(tool => !review.withheld.has(tool.tool));
  // An upgrade or a rebuild of an installed server going on in the background.
  const busy =
    pending?.state === 'installing'
      ? `An upgrade or build of ${summary.name} is still at work: ${pending.step}. Ask again later; tools/list_changed announces its new tools.`
      : pending
        ? `The last upgrade or build of ${summary.name} failed: ${pending.step}`
        : undefined;
  const next =
    busy ??
    missingEnvNext(summary) ??
    `Call a tool with registry.call { server: "${summary.name}", tool: "<tool>", arguments: {…} }, or directly by its exposed name.`;
  const text = [
    `${summary.name} (${summary.state}${summary.protocolVersion ? `, MCP ${summary.protocolVersion}` : ''}) — ${tools.length} tools${summary.missingEnv ? ` — missing env ${summary.missingEnv.join(', ')}` : ''}`,
    ...(summary.lastError ? [`last error: ${summary.lastError}`] : []),
    ...(summary.instructions ? [`instructions from the server:\n${summary.instructions}`] : []),
    ...tools.map(
      t =>
        `- ${t.tool}${t.exposedName ? ` [${t.exposedName}]` : ''}: ${t.description ?? ''}\n  input: ${JSON.stringify(t.inputSchema)}`,
    ),
    ...toolIssues.map(issue => `! ${issue.action} ${issue.tool}: ${issue.reason}`),
    ...review.lines,
    next,
  ];
  const structured = {
    servers: [summary],
    tools,
    ...(toolIssues.length > 0 && { toolIssues }),
    ...review.structured,
    next,
  };
  return { structured, text: text.join('\n') };
}

function listTool(deps: ToolDeps, manager: ServerManager, mode: NameMode, spell: Spell): HubTool {
  const { config, store } = deps;
  return defineTool({
    name: 'registry.list',
    title: 'List installed MCP servers',
    description:
      'Installed MCP servers: state, tools, calls, errors, latency, last error. With server: its tools and input schemas, for registry.call.',
    input: ListInputSchema,
    output: ListOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(input) {
      const name = input.server;
      if (name === undefined) return serverListResult({ config, store, manager, spell });
      // An install still at work (or failed in the background) has no record yet: show its step.
      const pending = readPendingInstall(config, name);
      if (pending && !(await store.read()).servers[name]) return pendingInstallResult(pending);
      return oneServerResult(deps, manager, mode, name, pending);
    },
  });
}

function uninstallTool(deps: ToolDeps, manager: ServerManager, mode: NameMode): HubTool {
  const { config, log, store } = deps;
  return defineTool({
    name: 'registry.uninstall',
    title: 'Uninstall an MCP server',
    description:
      'Stop and remove an installed MCP server (its tools, record and ~/.hub/servers/<name>). Its log and data folder stay unless purge is true.',
    input: UninstallInputSchema,
    output: UninstallOutputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(input) {
      // Spelled by the table from before: the uninstall takes the server's routes away.
      const before = manager.routes();
      const result = await uninstallServer(input.name, { config, log, store, manager }, { purge: input.purge });
      result.removedTools = result.removedTools.map(exposedSpelling(() => before, mode));
      const structured = {
        name: result.name,
        removedTools: result.removedTools,
        logFile: result.logFile,
        ...(result.folderRemoved !== undefined && { folderRemoved: result.folderRemoved }),
        ...(result.dataKept !== undefined && { dataKept: result.dataKept }),
        ...(result.dataRemoved !== undefined && { dataRemoved: result.dataRemoved }),
        next: result.decisionsKept
          ? `The user's decisions about "${result.name}" are kept and apply again if it is installed under this name (${result.decisionsKept.join('; ')}); only the user drops them (\`hub-mcp servers forget ${result.name}\`).`
          : 'registry.list shows the servers still installed; registry.search finds new ones.',
      };
      const data = result.dataKept
        ? ` Its data stays in ${result.dataKept} (registry.uninstall { name: "${result.name}", purge: true } deletes it).`
        : result.dataRemoved
          ? ` Its data folder ${result.dataRemoved} was deleted.`
          : '';
      return {
        structured,
        text: `Uninstalled ${result.name}: removed ${result.removedTools.length} tools${result.folderRemoved ? ` and ${result.folderRemoved}` : ''}; its log stays at ${result.logFile}.${data}${result.decisionsKept ? `\n${structured.next}` : ''}`,
      };
    },
  });
}

function callTool(manager: ServerManager): HubTool {
  return defineTool({
    name: 'registry.call',
    title: 'Call a tool of an installed server',
    description:
      "Call an installed server's tool by server and tool name (starts it if needed). " +
      'Unlisted tools: registry.list { server } or tools.search give names and input schemas.',
    input: CallInputSchema,
    // No output schema: the child's result comes back as the child shaped it (content,
    // structuredContent, isError), as a direct call of the tool would return it.
    annotations: { openWorldHint: true },
    async run(input, call) {
      const result = await manager
        .call(input.server, input.tool, input.arguments, call.extra as ServerExtra)
        .catch((error: unknown) => {
          throw error instanceof RpcError ? childError(input.server, input.tool, error) : error;
        });
      return { passthrough: result };
    },
  });
}

// registry.search/install/list/uninstall/call and the proxied tools of installed servers.
export function createRegistryTools(
  deps: ToolDeps,
  /** A hub core's manager, shared by its sessions (closed by the core, not here); else one of its own. */
  shared?: ServerManager,
): ToolGroup & {
  proxied: ProxiedTools;
  /** What registry.list shows of every installed server (hub://servers serves it). */
  servers(): Promise<ServerListResult>;
  close(): Promise<void>;
} {
  const { config, store } = deps;
  const manager = shared ?? createServerManager(deps);
  // Results name tools the way clients see them listed (docs/tools.md "Tool names").
  const mode: NameMode = pickNameMode(config.toolNames);
  const spell = exposedSpelling(() => manager.routes(), mode);

  const tools: HubTool[] = [
    createSearchTool(deps),
    installTool(deps, manager, spell),
    listTool(deps, manager, mode, spell),
    uninstallTool(deps, manager, mode),
    callTool(manager),
    createConfigureTool(deps, manager),
  ];
  return {
    tools,
    proxied: manager,
    async servers() {
      const { structured, text } = await serverListResult({ config, store, manager, spell });
      // As the tool table spells registry.list's result for this client.
      return { structured: { ...structured, next: spellText(structured.next, mode) }, text: spellText(text, mode) };
    },
    close: () => (shared ? Promise.resolve() : manager.close()),
  };
}
