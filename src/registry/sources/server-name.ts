// Server names a person types and a client shows: short, lowercase, derived from the npm package.
export const SERVER_NAME_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;
export const SERVER_NAME_MAX = 20;
export const RESERVED_SERVER_NAMES: ReadonlySet<string> = new Set(['registry', 'hub', 'process']);
// hub's own questions to the person may come under names like `hub-consent`: no child may take one.
export const RESERVED_SERVER_PREFIX = 'hub-';

/** hub's own names (registry, hub, process) and every name starting with `hub-`. */
export const isReservedServerName = (name: string): boolean =>
  RESERVED_SERVER_NAMES.has(name) || name.startsWith(RESERVED_SERVER_PREFIX);

// Affixes that say "this is an MCP server" and nothing about what it does; longest first.
const PREFIXES = ['mcp-server-', 'server-', 'mcp-'];
const SUFFIXES = ['-mcp-server', '-server-mcp', '-mcp', '-server'];

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function stripAffixes(base: string): string {
  let name = base;
  for (const prefix of PREFIXES) {
    if (name.startsWith(prefix) && name.length > prefix.length) {
      name = name.slice(prefix.length);
      break;
    }
  }
  for (const suffix of SUFFIXES) {
    if (name.endsWith(suffix) && name.length > suffix.length) {
      name = name.slice(0, -suffix.length);
      break;
    }
  }
  return name === 'mcp' || name === 'server' || name === 'mcp-server' ? '' : name;
}

/**
 * The suggested server name for an npm package: `@modelcontextprotocol/server-memory` → `memory`,
 * `@playwright/mcp` → `playwright`, `exa-mcp-server` → `exa`. Always matches SERVER_NAME_PATTERN
 * and is never reserved.
 */
export function deriveServerName(packageName: string): string {
  const spec = packageName.trim().replace(/(.)@[^/@]*$/, '$1'); // drop a version or tag
  const match = /^@([^/]+)\/(.+)$/.exec(spec);
  const scope = match ? slug(match[1] ?? '') : '';
  const base = slug(match ? (match[2] ?? '') : spec);
  // A package named only for its kind (`@sentry/mcp-server`) is named after its scope.
  let name = stripAffixes(base) || stripAffixes(scope) || scope || 'server';
  if (!/^[a-z]/.test(name)) name = `mcp-${name}`;
  name = name.slice(0, SERVER_NAME_MAX).replace(/-+$/, '');
  if (name === 'hub' || name.startsWith(RESERVED_SERVER_PREFIX))
    name = `mcp-${name}`.slice(0, SERVER_NAME_MAX).replace(/-+$/, '');
  else if (RESERVED_SERVER_NAMES.has(name)) name = `${name}-server`;
  return name;
}

export const isValidServerName = (name: string): boolean =>
  SERVER_NAME_PATTERN.test(name) && !isReservedServerName(name);
