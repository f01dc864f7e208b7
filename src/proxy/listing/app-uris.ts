// Two servers' same ui:// URI kept apart: the later one shown as ui://<server>/… and read by its own.
import { isUiUri } from './apps.js';

// Two installed servers may both name their view ui://app/view.html (each written alone). hub
// lists every server's resources side by side, so the later server's (install order, as with
// tool names) is renamed to ui://<server>/app/view.html everywhere hub shows it (resources/list,
// the tools' _meta.ui.resourceUri) and read from its child by its own URI. Every other URI is
// the child's own. Pure and zod-free: the cold-start lane lists through this too.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

interface UiRecord {
  readonly name: string;
  readonly order: number;
  readonly tools?: readonly Json[] | undefined;
  readonly surface?: { readonly resources: readonly Json[] } | undefined;
}

export interface UiUriPlan {
  /** server → its own ui:// URI → the URI hub shows (renamed ones only). */
  readonly shown: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** A URI hub shows → the server and its own URI (renamed ones only). */
  readonly own: ReadonlyMap<string, { readonly server: string; readonly uri: string }>;
}

const FLAT = 'ui/resourceUri';

function uiUrisOf(record: UiRecord): string[] {
  const uris = new Set<string>();
  for (const resource of record.surface?.resources ?? []) if (isUiUri(resource.uri)) uris.add(resource.uri);
  for (const tool of record.tools ?? []) {
    const meta = isObject(tool._meta) ? tool._meta : undefined;
    const ui = isObject(meta?.ui) ? meta.ui : undefined;
    if (isUiUri(ui?.resourceUri)) uris.add(ui.resourceUri);
    if (isUiUri(meta?.[FLAT])) uris.add(meta[FLAT]);
  }
  return [...uris];
}

/** Which ui:// URIs hub renames, from the installed servers alone (the same in every hub process). */
export function uiUriPlan(records: readonly UiRecord[]): UiUriPlan {
  const sorted = [...records].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  const perServer = sorted.map(record => ({ server: record.name, uris: uiUrisOf(record) }));
  // Every server's own URIs are taken first: a rename never lands on a URI some server uses.
  const taken = new Set(perServer.flatMap(entry => entry.uris));
  const first = new Set<string>();
  const shown = new Map<string, Map<string, string>>();
  const own = new Map<string, { server: string; uri: string }>();
  for (const { server, uris } of perServer) {
    for (const uri of uris) {
      if (!first.has(uri)) {
        first.add(uri);
        continue;
      }
      const base = `ui://${server}/${uri.slice('ui://'.length)}`;
      let renamed = base;
      for (let n = 2; taken.has(renamed); n++) renamed = `ui://${server}.${n}/${uri.slice('ui://'.length)}`;
      taken.add(renamed);
      shown.set(server, (shown.get(server) ?? new Map<string, string>()).set(uri, renamed));
      own.set(renamed, { server, uri });
    }
  }
  return { shown, own };
}

/** The URI hub shows for a server's own `uri`. */
export const shownUri = (plan: UiUriPlan, server: string, uri: string): string =>
  plan.shown.get(server)?.get(uri) ?? uri;

/** A tool of `server` as hub shows it: its view's URI renamed when the plan renames it. */
export function withShownUri<T extends Json>(plan: UiUriPlan, server: string, tool: T): T {
  const renames = plan.shown.get(server);
  const meta = tool._meta;
  if (renames === undefined || !isObject(meta)) return tool;
  const ui = isObject(meta.ui) ? meta.ui : undefined;
  const nested = typeof ui?.resourceUri === 'string' ? renames.get(ui.resourceUri) : undefined;
  const flat = typeof meta[FLAT] === 'string' ? renames.get(meta[FLAT]) : undefined;
  if (nested === undefined && flat === undefined) return tool;
  return {
    ...tool,
    _meta: {
      ...meta,
      ...(nested !== undefined && { ui: { ...ui, resourceUri: nested } }),
      ...(flat !== undefined && { [FLAT]: flat }),
    },
  };
}
