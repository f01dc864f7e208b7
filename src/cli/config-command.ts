// `hub config <client>`: hub's entry printed, merged into the client's file, or diffed.
import { stat } from 'node:fs/promises';
import { ClientIdSchema } from '../clients/types.js';
import { EXPOSURE_MODES, loadConfig } from '../core/config/config.js';
import { findClient } from '../clients/index.js';
import {
  applyConfig,
  entrySnippet,
  pickScope,
  planConfig,
  planDiff,
  planUrlConfig,
  type ConfigPlan,
} from '../clients/configure.js';
import { parseCommandArgs } from './args.js';
import type { CommandDeps } from './command-deps.js';
import type { CliIo } from './command.js';
import { defaultServerJs, hubLaunch } from '../clients/launch.js';
import { inNpxCache, npxLaunch } from '../clients/npx-launch.js';
import { portableLaunch, type PortableLaunch } from '../clients/portable.js';
import type { ClientSpec, Scope } from '../clients/types.js';
import { HubError } from '../core/errors.js';
import { COMMAND_NAME, PACKAGE_NAME } from '../core/package-name.js';
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT, mcpUrl } from '../core/http-endpoint.js';
import { readOrCreateHttpToken } from '../store/http-token.js';

const USAGE = `Usage: hub-mcp config <client> [--scope project|user] [--exposure all|search|auto] [--http [--port N]] [--write | --dry-run] [--json]\nClients: ${ClientIdSchema.options.join(', ')}\n--exposure sets HUB_EXPOSURE in the entry: which proxied tools this client lists (docs/exposure.md).\n--http writes the URL of hub-mcp serve (default port ${DEFAULT_HTTP_PORT}) with the token header instead of the stdio command (user scope only).\n`;

const indent = (text: string): string => text.replace(/^/gm, '  ');

function describe(plan: ConfigPlan): string {
  const target = plan.document.target;
  const where = `${plan.client.title} (${plan.scope} scope) reads MCP servers from ${target.file}, ${target.format === 'toml' ? 'table' : 'key'} "${target.serversPath.join('.')}".`;
  return `${where}\n\n${indent(entrySnippet(plan))}\n`;
}

// hub config <client>: print the entry, or with --write merge it (backup first), or --dry-run diff.
export async function runConfig(argv: readonly string[], deps: CommandDeps): Promise<number> {
  const { io } = deps;
  const { values: flags, positionals } = parseCommandArgs('config', argv, {
    write: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    scope: { type: 'string' },
    exposure: { type: 'string' },
    http: { type: 'boolean' },
    port: { type: 'string' },
  });
  if (flags.help || positionals.length !== 1) {
    (flags.help ? io.out : io.err)(USAGE);
    return flags.help ? 0 : 2;
  }
  const exposure = flags.exposure;
  if (exposure !== undefined && !(EXPOSURE_MODES as readonly string[]).includes(exposure)) {
    io.err(`hub-mcp config: --exposure must be one of ${EXPOSURE_MODES.join(', ')} (got "${exposure}").\n`);
    return 2;
  }
  if (flags.port !== undefined && !flags.http) {
    io.err('hub-mcp config: --port goes with --http (the port hub-mcp serve listens on).\n');
    return 2;
  }
  if (flags.http && exposure !== undefined) {
    io.err(
      'hub-mcp config: --exposure sets the env of a stdio entry; a URL entry (--http) has none. Leave out one of them.\n',
    );
    return 2;
  }
  const client = findClient(positionals[0]);
  const scope = pickScope(client, flags.scope ?? (flags.http && client.scopes.includes('user') ? 'user' : undefined));
  if (flags.http) {
    const { plan, tokenFile } = await planHttp(client, scope, deps, flags.port);
    // The token goes into the file, never to the terminal (scrollback, an agent's transcript).
    const hidden: CommandDeps = { ...deps, io: hideToken(deps.io, tokenFile) };
    const warning = await readableByOthers(plan.document.target.file);
    if (warning && !flags.json) hidden.io.err(`hub-mcp config: warning: ${warning}\n`);
    return finish(
      plan,
      { ...flags, again: `--http${flags.port === undefined ? '' : ` --port ${flags.port}`}` },
      hidden,
      httpNotes(client, flags.port),
      warning,
    );
  }
  const serverJs = deps.serverJs ?? defaultServerJs();
  const npx = inNpxCache(serverJs);
  const absolute = npx ? npxLaunch() : hubLaunch(serverJs, deps.nodePath);
  // A project file is shared through git: a portable command when this hub is on PATH (an npx
  // entry is portable already).
  const portable: PortableLaunch =
    scope === 'project' && !npx ? portableLaunch(deps.context, serverJs, absolute) : { launch: absolute };
  const launch = portable.launch;
  if (portable.warning && !flags.json) io.err(`hub-mcp config: warning: ${portable.warning}\n`);
  const plan = await planConfig(client, scope, deps.context, launch, exposure ? { HUB_EXPOSURE: exposure } : {});
  const notes = client.notes?.(launch, scope) ?? [];
  return finish(plan, { ...flags, npx }, deps, notes, portable.warning);
}

function portOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_HTTP_PORT;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65_535) {
    throw new HubError(
      'INVALID_INPUT',
      `--port must be the port hub-mcp serve listens on, 1 to 65535 (got "${value}").`,
    );
  }
  return Number(value);
}

// The URL and the token of this HUB_HOME (the token made now if hub serve never ran).
async function planHttp(
  client: ClientSpec,
  scope: Scope,
  deps: CommandDeps,
  port: string | undefined,
): Promise<{ plan: ConfigPlan; tokenFile?: { token: string; file: string } }> {
  const url = mcpUrl(DEFAULT_HTTP_HOST, portOf(port));
  // Refused before the token is made: a client that cannot take a URL gets nothing written anywhere.
  if (!client.urlEntry) return { plan: await planUrlConfig(client, scope, deps.context, url, {}) };
  const made = readOrCreateHttpToken(loadConfig(deps.context.env as NodeJS.ProcessEnv).paths);
  const plan = await planUrlConfig(client, scope, deps.context, url, { Authorization: `Bearer ${made.token}` });
  return { plan, tokenFile: made };
}

function hideToken(io: CliIo, secret: { token: string; file: string } | undefined): CliIo {
  if (!secret) return io;
  const hide = (text: string) => text.split(secret.token).join(`<token in ${secret.file}>`);
  return { out: text => io.out(hide(text)), err: text => io.err(hide(text)) };
}

// The token makes the file a secret: said when others can read it (hub keeps a file's mode).
async function readableByOthers(file: string): Promise<string | undefined> {
  try {
    const mode = (await stat(file)).mode & 0o777;
    return (mode & 0o077) === 0
      ? undefined
      : `${file} is readable by others (mode ${mode.toString(8)}) and will hold hub's token: chmod 600 ${file}`;
  } catch {
    return undefined; // a new file is made 0600
  }
}

const httpNotes = (client: ClientSpec, port: string | undefined): string[] => [
  `The entry connects to hub-mcp serve: keep it running (hub-mcp serve${port === undefined ? '' : ` --port ${port}`}), or ${client.title} shows hub as failed.`,
  'The token is written into the file (shown here as <token in …>): after hub-mcp serve --rotate-token, run this command again.',
];

async function finish(
  plan: ConfigPlan,
  flags: { json?: boolean; 'dry-run'?: boolean; write?: boolean; scope?: string; again?: string; npx?: boolean },
  deps: CommandDeps,
  notes: readonly string[],
  warning?: string,
): Promise<number> {
  const { io } = deps;
  const { client, scope } = plan;
  const file = plan.document.target.file;
  const dryRun = flags['dry-run'] === true;
  const write = flags.write === true && !dryRun;
  const diff = planDiff(plan);
  const result = write ? await applyConfig(plan) : { backup: undefined };

  if (flags.json) {
    io.out(
      `${JSON.stringify({ client: client.id, scope, file, format: plan.document.target.format, key: 'hub', entry: plan.entry, state: plan.state, wrote: write && plan.state !== 'unchanged', backup: result.backup ?? null, diff: dryRun ? diff : undefined, notes, warnings: warning ? [warning] : [] }, null, 2)}\n`,
    );
    return 0;
  }
  if (dryRun) {
    io.out(
      plan.state === 'unchanged'
        ? `${file} already has this hub entry; --write would change nothing.\n`
        : `${diff}\n(dry run: nothing was written)\n`,
    );
    if (lostComments(plan.before, plan.after) > 0)
      io.out(
        'Note: this file could not be edited in place, so its comments would not be kept; --write backs the file up first.\n',
      );
    return 0;
  }
  if (write) {
    if (plan.state === 'unchanged') io.out(`${file} already has this hub entry; nothing changed.\n`);
    else
      io.out(
        `${plan.state === 'new-file' ? 'Created' : plan.state === 'replaced' ? 'Updated the hub entry in' : 'Added hub to'} ${file}${result.backup ? ` (backup: ${result.backup})` : ''}.\n`,
      );
    for (const note of notes.filter(line => !line.startsWith('Or let'))) io.out(`${note}\n`);
    return 0;
  }
  io.out(describe(plan));
  if (plan.state === 'unchanged') io.out(`\nThis entry is already in ${file}.\n`);
  io.out(
    `\n${[...notes, `To merge it into the file (a backup is made first): hub-mcp config ${client.id}${flags.scope !== undefined ? ` --scope ${scope}` : ''}${flags.again ? ` ${flags.again}` : ''} --write   (preview: --dry-run)`].join('\n')}\n`,
  );
  if (flags.again === undefined && flags.npx !== true)
    io.out(
      `If ${COMMAND_NAME} is on the PATH of the client (npm install -g ${PACKAGE_NAME}), "command": "${COMMAND_NAME}" with no args works too; the absolute node path above also works for apps started outside a shell.\n`,
    );
  return 0;
}

// Comment lines of the old text that the new one no longer has (a whole rewrite of the file).
function lostComments(before: string, after: string): number {
  const kept = new Set(after.split('\n').map(line => line.trim()));
  return before.split('\n').filter(line => /^(#|\/\/)/.test(line.trim()) && !kept.has(line.trim())).length;
}
