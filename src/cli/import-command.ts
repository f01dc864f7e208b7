// `hub import <client>`: a client's servers registered in hub, then dropped from its file.
import { HubError } from '../core/errors.js';
import { loadConfig } from '../core/config/config.js';
import { ClientIdSchema } from '../clients/types.js';
import { findClient } from '../clients/index.js';
import { HUB_KEY, pickScope } from '../clients/configure.js';
import { parseCommandArgs } from './args.js';
import type { CommandDeps } from './command-deps.js';
import { registerServers, removeFromClient } from '../clients/import.js';
import { defaultServerJs } from '../clients/launch.js';
import { readClientServers } from '../clients/read-servers.js';
import { redactArgs } from '../clients/redact.js';
import { readDocument, serversOf } from '../clients/document.js';
import { probeServers, type ProbeResult } from '../clients/probe.js';

const USAGE = `Usage: hub-mcp import <client> [--scope project|user] [--no-start] [--remove [--yes]] [--json]\nClients: ${ClientIdSchema.options.join(', ')}\n`;

const commandLine = (command: string, args: readonly string[]): string => [command, ...redactArgs(args)].join(' ');

// hub import <client>: register the client's servers in hub (stdio commands and URL servers); --remove then
// drops them from the client's file (backup first) so they run once, behind hub.
export async function runImport(argv: readonly string[], deps: CommandDeps): Promise<number> {
  const { io, context } = deps;
  const { values: flags, positionals } = parseCommandArgs('import', argv, {
    remove: { type: 'boolean' },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    'no-start': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    scope: { type: 'string' },
  });
  if (flags.help || positionals.length !== 1) {
    (flags.help ? io.out : io.err)(USAGE);
    return flags.help ? 0 : 2;
  }
  const client = findClient(positionals[0]);
  const scope = flags.scope !== undefined ? pickScope(client, flags.scope) : undefined;
  const remove = flags.remove === true;
  const yes = flags.yes === true;
  if (remove && !yes && !deps.confirm) {
    throw new HubError(
      'INVALID_INPUT',
      '--remove changes the client config and there is no terminal to ask: add --yes to confirm.',
    );
  }
  const serverJs = deps.serverJs ?? defaultServerJs();
  const servers = await readClientServers(client, context, scope, serverJs);
  const outcome = await registerServers(servers.found, client.id, context);
  const hubHome = loadConfig(context.env as NodeJS.ProcessEnv).home;
  const json = flags.json === true;

  // Start each server that never ran under hub once, so its tools are cached and listed at once
  // by every hub, and so --remove knows it works (imported earlier with --no-start included).
  const noStart = flags['no-start'] === true;
  const toProbe = outcome.candidates.filter(candidate => !candidate.started).map(candidate => candidate.name);
  let probes = new Map<string, ProbeResult>();
  if (!noStart && toProbe.length > 0) {
    if (!json) io.out(`Starting ${toProbe.length} server(s) once to read their tools (up to 30 s each)...\n`);
    probes = await probeServers(toProbe, context);
  }
  // Only a server that started under hub leaves the client: removing one that never ran (or
  // did not start) would lose a working setup.
  const removable = outcome.candidates
    .filter(candidate => candidate.started || probes.get(candidate.name)?.ok === true)
    .map(candidate => candidate.server);
  const failedImports = outcome.candidates.filter(candidate => probes.get(candidate.name)?.ok === false);
  const unchecked = outcome.candidates.filter(candidate => !candidate.started && !probes.has(candidate.name));

  let removed: Awaited<ReturnType<typeof removeFromClient>> = [];
  let declined = false;
  if (remove && removable.length > 0) {
    const keys = removable.map(server => server.key).join(', ');
    const ok =
      yes || (await deps.confirm!(`Remove ${keys} from ${client.title}'s config (a backup is made first)? [y/N] `));
    if (ok) removed = await removeFromClient(removable);
    else declined = true;
  }

  if (json) {
    const imported = outcome.imported.map(server => ({
      ...server,
      args: redactArgs(server.args),
      ...(probes.has(server.name) && { started: probes.get(server.name) }),
    }));
    const report = {
      client: client.id,
      hubHome,
      files: servers.files,
      imported,
      existing: outcome.existing,
      skipped: servers.skipped,
      removed,
      declined,
      // Left in the client because they did not start, or were not tried (--no-start).
      kept: remove ? [...failedImports, ...unchecked].map(candidate => candidate.server.key) : [],
    };
    io.out(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const lines: string[] = [];
  const present = servers.files.filter(file => file.found);
  if (present.length === 0) {
    io.out(
      `No ${client.title} config found (looked in ${servers.files.map(file => file.file).join(', ')}); nothing to import.\n`,
    );
    return 0;
  }
  for (const file of servers.files.filter(file => file.error)) lines.push(`! ${file.error}`);
  for (const server of outcome.imported) {
    const env =
      server.envKeys.length > 0
        ? `  (env: ${server.envKeys.join(', ')})`
        : server.headerKeys?.length
          ? `  (headers: ${server.headerKeys.join(', ')})`
          : '';
    const probe = probes.get(server.name);
    const started = !probe
      ? ''
      : probe.ok
        ? ` — ${probe.tools} tools`
        : ` — did not start: ${probe.error}${probe.error.includes(probe.logFile) ? '' : ` (log: ${probe.logFile})`}`;
    lines.push(
      `+ ${server.name.padEnd(20)} ${commandLine(server.command, server.args)}${env}${server.key !== server.name ? `  [was "${server.key}"]` : ''}${started}`,
    );
  }
  for (const server of outcome.imported.filter(entry => entry.variableKeys.length > 0)) {
    lines.push(
      `! ${server.name}: env ${server.variableKeys.join(', ')} holds a ${client.title} variable (\${...}) that hub does not expand; put the real value in ${hubHome}/db.json (servers.${server.name}.env)`,
    );
  }
  for (const server of outcome.imported.filter(entry => entry.headerVariables?.length))
    lines.push(
      `! ${server.name}: header ${server.headerVariables!.join(', ')} holds a ${client.title} variable that hub does not fill; put the real value in ${hubHome}/db.json (servers.${server.name}.remote.headers) or use \${NAME} for an environment variable`,
    );
  for (const server of outcome.existing)
    lines.push(
      `= ${server.name.padEnd(20)} already in hub${server.same ? ' (same command)' : " with a different command: kept hub's; rename one to import it"}`,
    );
  for (const server of servers.skipped) lines.push(`- ${server.key.padEnd(20)} skipped: ${server.reason}`);
  io.out(`${lines.join('\n')}\n\n`);
  io.out(
    `Imported ${outcome.imported.length} server${outcome.imported.length === 1 ? '' : 's'} into hub (${hubHome}). Env values were kept and are not shown.\n`,
  );
  for (const done of removed) io.out(`Removed ${done.keys.join(', ')} from ${done.file} (backup: ${done.backup}).\n`);
  if (declined) io.out('Left the client config as it was.\n');
  if (remove && failedImports.length > 0) {
    const keys = failedImports.map(candidate => candidate.server.key).join(', ');
    io.out(`Kept ${keys} in ${client.title}'s config: they did not start under hub.\n`);
  }
  if (remove && unchecked.length > 0) {
    const keys = unchecked.map(candidate => candidate.server.key).join(', ');
    io.out(
      `Kept ${keys} in ${client.title}'s config: they have not started under hub yet (--no-start). Run hub-mcp import ${client.id} --remove without --no-start to try them and then remove them.\n`,
    );
  }
  if (!remove && removable.length > 0)
    io.out(
      `They now also run through hub; to drop them from ${client.title}'s config: hub-mcp import ${client.id} --remove\n`,
    );
  const hubConfigured = await Promise.all(
    client.scopes.map(async s => {
      try {
        return serversOf(await readDocument(client.locate(s, context)))?.[HUB_KEY] !== undefined;
      } catch {
        return false;
      }
    }),
  );
  if (!hubConfigured.includes(true))
    io.out(`${client.title} does not start hub yet: hub-mcp config ${client.id} --write\n`);
  return 0;
}
