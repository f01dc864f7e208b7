// registry.install: one tool, its progress, the install code loaded on first use, and its result's text.
import type { ServerManager } from '../proxy/server-manager.js';
import { askToSignIn } from '../proxy/oauth/sign-in-ask.js';
import { scriptsChoiceOf } from '../registry/decisions/scripts-choice.js';
import type { InstallContext } from '../registry/install/install.js';
import { InstallResultSchema, type InstallResult } from '../registry/install/result.js';
import { npmEnvironment } from '../registry/npm/env.js';
import { defineTool, type CallContext, type HubTool, type ToolDeps } from './define.js';
import { InstallInputSchema } from './registry-schemas.js';

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

/** What registry.install answers in text: the server and its state, its tools, then what needs the user. */
function installText(result: InstallResult): string {
  const status = result.background
    ? `still installing in the background (${result.step ?? 'npm'})`
    : result.missingEnv.length > 0
      ? `saved, not started (missing ${result.missingEnv.join(', ')})`
      : `${result.state}, ${result.tools.length} tools`;
  return [
    `${result.name}: ${result.package ? `${result.package}@${result.version ?? '?'}` : result.command} — ${status}`,
    ...result.tools,
    ...(result.warnings ?? []).map(warning => `npm warning: ${warning}`),
    ...(result.withheld?.length
      ? [
          `Withheld until the user approves them (they changed): ${result.withheld.join(', ')}; registry.list { server: "${result.name}" } shows what changed.`,
        ]
      : []),
    ...(result.toolMarkers ?? []).map(
      entry => `! possible prompt injection in ${entry.tool}: ${entry.markers.join('; ')} — show this to the user`,
    ),
    ...(result.skippedScripts?.length
      ? [
          `Install scripts not run (allow with allowScripts): ${result.skippedScripts.map(entry => `${entry.name}@${entry.version}`).join(', ')}`,
        ]
      : []),
    result.next,
  ].join('\n');
}

/** registry.install over the session's client (consent, sign-in, progress), naming tools as `spell` does. */
export function installTool(deps: ToolDeps, manager: ServerManager, spell: (dotted: string) => string): HubTool {
  const { config, log, store, server } = deps;
  return defineTool({
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
      }).then(installed => {
        const tools = installed.tools.map(spell);
        // This session installed it: its tools are listed next, and next says how to reach them here.
        const reach = deps.exposure?.installed(installed.name);
        const started = !installed.background && installed.missingEnv.length === 0 && tools.length > 0;
        return { ...installed, tools, ...(started && reach !== undefined && { next: reach }) };
      });
      return { structured: result, text: installText(result) };
    },
  });
}
