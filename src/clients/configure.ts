// `hub config`'s plan for one client file, its diff and snippet, and applying it with a backup.
import { stringify as stringifyToml } from 'smol-toml';
import { HubError } from '../core/errors.js';
import { unifiedDiff } from './diff.js';
import { readDocument, render, serversOf, withServers, type ConfigDocument } from './document.js';
import { setMember } from './json-edit.js';
import { URL_OWNED_KEYS, mergeEntry, sameEntry } from './merge-entry.js';
import { setTomlTable } from './toml-edit.js';
import type { ClientContext, ClientSpec, Launch, Scope } from './types.js';
import { backupFile, writeConfigFile } from './write-file.js';

export const HUB_KEY = 'hub';

/** What `hub config` would do to one client file, computed without touching it. */
export interface ConfigPlan {
  readonly client: ClientSpec;
  readonly scope: Scope;
  readonly document: ConfigDocument;
  readonly entry: Record<string, unknown>;
  /** new-file: the file does not exist; added/replaced: the hub key is new/different; unchanged: already there. */
  readonly state: 'new-file' | 'added' | 'replaced' | 'unchanged';
  readonly before: string;
  readonly after: string;
  /** The keys hub replaces rather than merges (the URL form drops env and cwd too). */
  readonly owned?: readonly string[];
}

export function pickScope(client: ClientSpec, scope: string | undefined): Scope {
  if (scope === undefined) return client.defaultScope;
  if (!(client.scopes as readonly string[]).includes(scope)) {
    throw new HubError(
      'INVALID_INPUT',
      `${client.title} has no "${scope}" scope: use --scope ${client.scopes.join(' or --scope ')}.`,
    );
  }
  return scope as Scope;
}

const withHub = (document: ConfigDocument, entry: Record<string, unknown>): string =>
  render(
    document,
    withServers(document, servers => void (servers[HUB_KEY] = entry)),
    (text, unit) =>
      document.target.format === 'toml'
        ? setTomlTable(text, document.target.serversPath, HUB_KEY, entry)
        : setMember(text, document.target.serversPath, HUB_KEY, entry, unit),
  );

export async function planConfig(
  client: ClientSpec,
  scope: Scope,
  context: ClientContext,
  launch: Launch,
  /** Env the person asked for (hub config --exposure): set over what the entry has. */
  env: Readonly<Record<string, string>> = {},
): Promise<ConfigPlan> {
  return planEntry(client, scope, context, previous => {
    const merged = mergeEntry(previous, client.entry(launch, context.env));
    const had = merged.env !== null && typeof merged.env === 'object' ? (merged.env as Record<string, unknown>) : {};
    return Object.keys(env).length === 0 ? merged : { ...merged, env: { ...had, ...env } };
  });
}

/**
 * The URL form (hub config --http): hub's Streamable HTTP endpoint with its token header. The
 * token is written into the file, so only a user-scope file (never one shared through git).
 */
export async function planUrlConfig(
  client: ClientSpec,
  scope: Scope,
  context: ClientContext,
  url: string,
  headers: Readonly<Record<string, string>>,
): Promise<ConfigPlan> {
  const urlEntry = client.urlEntry;
  if (!urlEntry) {
    throw new HubError(
      'INVALID_INPUT',
      client.noUrl ?? `${client.title} cannot connect to a URL; use hub-mcp config ${client.id}.`,
    );
  }
  if (scope !== 'user') {
    throw new HubError(
      'INVALID_INPUT',
      `--http writes hub's token into the file, and a ${scope}-scope file is shared through git: use --scope user (the default with --http).`,
    );
  }
  return planEntry(
    client,
    scope,
    context,
    previous => mergeEntry(previous, urlEntry(url, headers), URL_OWNED_KEYS),
    URL_OWNED_KEYS,
  );
}

async function planEntry(
  client: ClientSpec,
  scope: Scope,
  context: ClientContext,
  build: (previous: unknown) => Record<string, unknown>,
  owned?: readonly string[],
): Promise<ConfigPlan> {
  const document = await readDocument(client.locate(scope, context));
  const previous = serversOf(document)?.[HUB_KEY];
  const entry = build(previous);
  const before = document.text ?? '';
  const state =
    document.text === undefined
      ? 'new-file'
      : previous === undefined
        ? 'added'
        : sameEntry(previous, entry)
          ? 'unchanged'
          : 'replaced';
  const after = state === 'unchanged' ? before : withHub(document, entry);
  return { client, scope, document, entry, state, before, after, ...(owned && { owned }) };
}

/** Merges the entry into the file: backup first, then an atomic write. Nothing when unchanged. */
export async function applyConfig(plan: ConfigPlan): Promise<{ backup: string | undefined }> {
  if (plan.state === 'unchanged') return { backup: undefined };
  // Fresh read: a client (Claude Code) may have rewritten its file since the plan was made.
  const fresh = await readDocument(plan.document.target);
  const after =
    fresh.text === plan.document.text
      ? plan.after
      : withHub(fresh, mergeEntry(serversOf(fresh)?.[HUB_KEY], plan.entry, plan.owned));
  const backup = fresh.text === undefined ? undefined : await backupFile(fresh.realFile);
  await writeConfigFile(fresh.realFile, after);
  return { backup };
}

export const planDiff = (plan: ConfigPlan): string =>
  unifiedDiff(
    plan.before,
    plan.after,
    plan.document.text === undefined ? '/dev/null' : `${plan.document.target.file} (now)`,
    `${plan.document.target.file} (after --write)`,
  );

/** The entry as a person would paste it into this client's file. */
export function entrySnippet(plan: ConfigPlan): string {
  const path = plan.document.target.serversPath;
  if (plan.document.target.format === 'toml') return stringifyToml({ [path[0]!]: { [HUB_KEY]: plan.entry } }).trim();
  return JSON.stringify({ [path[0]!]: { [HUB_KEY]: plan.entry } }, null, 2);
}
