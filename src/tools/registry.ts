import { scriptsChoiceOf } from '../registry/decisions/scripts-choice.js';
import { createServerManager, type ServerManager } from '../proxy/server-manager.js';
import { RpcError, childError } from '../wire/rpc-error.js';
import type { ProxiedTools, ServerExtra } from '../proxy/types.js';
import type { InstallContext } from '../registry/install/install.js';
import { readPendingInstall } from '../registry/install/background.js';
import { InstallResultSchema } from '../registry/install/result.js';
import { askToSignIn } from '../proxy/oauth/sign-in-ask.js';
import { npmEnvironment } from '../registry/npm/env.js';
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
import { serverListResult, type ServerListResult } from './server-list.js';
import { pickNameMode, spellText, type NameMode } from '../core/naming.js';
import { defineTool, type CallContext, type HubTool, type ToolDeps, type ToolGroup } from './define.js';
import {
  CallInputSchema,
  InstallInputSchema,
  ListInputSchema,
  ListOutputSchema,
  UninstallInputSchema,
  UninstallOutputSchema,
} from './registry-schemas.js';

function progressReporter(call: CallContext): Pick<InstallContext, 'progress' | 'onNpmLine'> {
  let step = 0;
  const send = (message: string) => void call.sendProgress(++step, undefined, message);
  // npm's own lines are not sent: the npm step reports a few steps a second instead.
  return { progress: message => send(message) };
}

// The install code (npm, the catalog, consent) loads on the first install: listing needs only schemas.
let installModules:
  | Promise<
      [
        typeof import('../registry/install/install.js'),
        typeof import('../registry/install/hints.js'),
        typeof import('../registry/decisions/consent.js'),
      ]
    >
  | undefined;
const loadInstall = () =>
  (installModules ??= Promise.all([
    import('../registry/install/install.js'),
    import('../registry/install/hints.js'),
    import('../registry/decisions/consent.js'),
  ]));

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
  const { config, log, store, server } = deps;
  const manager = shared ?? createServerManager(deps);
  // Results name tools the way clients see them listed (docs/tools.md "Tool names").
  const mode: NameMode = pickNameMode(config.toolNames);
  const spell = exposedSpelling(() => manager.routes(), mode);

  const install = defineTool({
    name: 'registry.install',
    title: 'Install an MCP server',
    description:
      'Install an MCP server (npm package, local command, remote url or registry entry), start it and expose its tools as <name>.<tool>. ' +
      'The user may be asked to approve. API keys go in env. Again for an installed server: updates env/args; upgrade: true updates it.',
    input: InstallInputSchema,
    output: InstallResultSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, call) {
      const [{ installServer }, { catalogHints, suggestServerName }, { elicitationConfirm, elicitationUndo }] =
        await loadInstall();
      const { allowScripts, ...rest } = input;
      const scripts = scriptsChoiceOf(allowScripts);
      const request = { ...rest, ...(scripts !== undefined && { allowScripts: scripts }) };
      const result = await installServer(request, {
        config,
        log,
        store,
        manager,
        confirm: elicitationConfirm(server, config.install.confirm, call.signal, config.paths.configFile),
        confirmUndo: elicitationUndo(server, config.install.confirm, call.signal),
        deriveName: suggestServerName,
        lookup: catalogHints,
        signal: call.signal,
        // npm runs with this client's npm variables, not those of the entry that started the hub.
        npmEnv: npmEnvironment(deps.sessionEnv),
        pathEnv: process.env.PATH,
        signIn: (name, url) =>
          askToSignIn(
            deps.client,
            { server: name, authorizationUrl: url },
            `Sign in to ${name} so hub can use its tools.`,
          ),
        ...progressReporter(call),
      }).then(async installed => {
        const tools = installed.tools.map(spell);
        // This session installed it: its tools are listed next, and next says how to reach them here.
        const reach = deps.exposure?.installed(installed.name);
        const started = !installed.background && installed.missingEnv.length === 0 && tools.length > 0;
        return { ...installed, tools, ...(started && reach !== undefined && { next: reach }) };
      });
      const status = result.background
        ? `still installing in the background (${result.step ?? 'npm'})`
        : result.missingEnv.length > 0
          ? `saved, not started (missing ${result.missingEnv.join(', ')})`
          : `${result.state}, ${result.tools.length} tools`;
      return {
        structured: result,
        text: [
          `${result.name}: ${result.package ? `${result.package}@${result.version ?? '?'}` : result.command} — ${status}`,
          ...result.tools,
          ...(result.warnings ?? []).map(warning => `npm warning: ${warning}`),
          ...(result.withheld?.length
            ? [
                `Withheld until the user approves them (they changed): ${result.withheld.join(', ')}; registry.list { server: "${result.name}" } shows what changed.`,
              ]
            : []),
          ...(result.toolMarkers ?? []).map(
            entry =>
              `! possible prompt injection in ${entry.tool}: ${entry.markers.join('; ')} — show this to the user`,
          ),
          ...(result.skippedScripts?.length
            ? [
                `Install scripts not run (allow with allowScripts): ${result.skippedScripts.map(entry => `${entry.name}@${entry.version}`).join(', ')}`,
              ]
            : []),
          result.next,
        ].join('\n'),
      };
    },
  });

  const list = defineTool({
    name: 'registry.list',
    title: 'List installed MCP servers',
    description:
      'Installed MCP servers: state, tools, calls, errors, latency, last error. With server: its tools and input schemas, for registry.call.',
    input: ListInputSchema,
    output: ListOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(input) {
      // An install still at work (or failed in the background) has no record yet: show its step.
      const pending = input.server === undefined ? undefined : readPendingInstall(config, input.server);
      if (pending && input.server !== undefined && !(await store.read()).servers[input.server]) {
        const next =
          pending.state === 'installing'
            ? `${pending.name} (${pending.package}) is still installing: ${pending.step}. Ask again later; tools/list_changed announces its tools.`
            : `The install of ${pending.name} (${pending.package}) failed: ${pending.step}`;
        return { structured: { servers: [], next }, text: next };
      }
      if (input.server !== undefined) {
        const described = await describeServer(input.server, mode, store, config.paths, manager);
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
      return serverListResult({ config, store, manager, spell });
    },
  });

  const uninstall = defineTool({
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

  const callTool = defineTool({
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

  const tools: HubTool[] = [
    createSearchTool(deps),
    install,
    list,
    uninstall,
    callTool,
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
