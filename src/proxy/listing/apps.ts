// MCP Apps (`io.modelcontextprotocol/ui`) in hub's lists: a tool's `_meta.ui` (its view's ui://
// resource, who may see it), which tools only an app may call, and what a session without the
// extension is shown. Zod- and SDK-free: the cold-start lane lists through this too. The
// extension's negotiation entry is proxy/sessions/apps-extension.ts.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The ext-apps 1.x spelling of `_meta.ui.resourceUri`, still read by hosts. */
const FLAT_RESOURCE_URI = 'ui/resourceUri';
const VISIBILITIES = new Set(['model', 'app']);

/** A URI of an app's view (its HTML): the ui:// scheme. */
export const isUiUri = (uri: unknown): uri is string => typeof uri === 'string' && /^ui:\/\//i.test(uri);

/**
 * What is wrong with a tool's `_meta.ui` (one sentence naming the field and the fix), or
 * undefined when it is absent or well formed.
 */
export function appMetaProblem(tool: Json): string | undefined {
  const meta = tool._meta;
  if (!isObject(meta)) return undefined;
  const flat = meta[FLAT_RESOURCE_URI];
  if (flat !== undefined && !isUiUri(flat))
    return `_meta["${FLAT_RESOURCE_URI}"] must be a ui:// URI, not ${JSON.stringify(flat)}`;
  const ui = meta.ui;
  if (ui === undefined) return undefined;
  if (!isObject(ui)) return `_meta.ui must be an object such as {"resourceUri": "ui://…"}, not ${JSON.stringify(ui)}`;
  if (ui.resourceUri !== undefined && !isUiUri(ui.resourceUri))
    return `_meta.ui.resourceUri must be a ui:// URI, not ${JSON.stringify(ui.resourceUri)}`;
  const { visibility } = ui;
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) || !visibility.every(entry => typeof entry === 'string' && VISIBILITIES.has(entry)))
  )
    return `_meta.ui.visibility must be a list of "model" and/or "app", not ${JSON.stringify(visibility)}`;
  return undefined;
}

/** The tool without its MCP Apps metadata (`_meta.ui`, `_meta["ui/resourceUri"]`); the same object when it has none. */
export function withoutAppMeta<T extends Json>(tool: T): T {
  const meta = tool._meta;
  if (!isObject(meta) || (meta.ui === undefined && meta[FLAT_RESOURCE_URI] === undefined)) return tool;
  const { ui: _ui, [FLAT_RESOURCE_URI]: _flat, ...rest } = meta;
  const { _meta: _dropped, ...bare } = tool;
  return (Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare) as T;
}

/** Whether a tool carries MCP Apps metadata (a session without the extension gets it without). */
export function hasAppMeta(tool: Json): boolean {
  return withoutAppMeta(tool) !== tool;
}

/**
 * A tool only an app may call: `_meta.ui.visibility` given without "model". It is never listed
 * (a host shows its model none of these), yet callable by name from an app through its host.
 */
export function isAppOnly(tool: Json): boolean {
  const ui = isObject(tool._meta) ? tool._meta.ui : undefined;
  const visibility = isObject(ui) ? ui.visibility : undefined;
  return Array.isArray(visibility) && !visibility.includes('model');
}

/** Whether an app may call the tool (no visibility, or one with "app"). */
export function appMayCall(tool: Json): boolean {
  const ui = isObject(tool._meta) ? tool._meta.ui : undefined;
  const visibility = isObject(ui) ? ui.visibility : undefined;
  return !Array.isArray(visibility) || visibility.includes('app');
}
