/**
 * The 2026-07-28 protocol revision ("modern era") as bytes: no `initialize`; every request says
 * its revision, the client's capabilities and info in params._meta; every result says whether it
 * is complete; lists and reads say how long they may be cached. Pure functions with no SDK and
 * no zod, so the cold-start lane answers `server/discover` with the same code as the full hub.
 */

/** The one modern revision hub speaks (both to its clients and to its children). */
export const MODERN_VERSION = '2026-07-28';
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION];

export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

/** MCP's log levels (RFC 5424 order), as a request's logLevel may name them. */
export const LOG_LEVELS: readonly string[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** -32022: the request names a revision hub does not speak. */
export const UNSUPPORTED_VERSION = -32022;

// What may be cached, and for how long. hub's lists change whenever a server is installed (by
// this hub or another on the same HUB_HOME) and each change is announced on subscriptions/listen,
// so a client may keep a list a little while: with ttlMs 0 the v2 client re-lists tools before
// every tools/call (to check output schemas), which doubled a proxied call's cost in `npm run
// bench -- --only eras`. A read is never cached: hub://processes and children's resources move.
// Nothing is shared between users (private).
const LIST_TTL_MS = 10_000;
const CACHE_FIELDS: Readonly<Record<string, { ttlMs: number; cacheScope: 'private' }>> = {
  'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'prompts/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * What a request's envelope says: `legacy` (no revision in _meta: a 2025-era request, served as
 * today), `modern` (a revision hub speaks, with the client's capabilities), or the error to answer.
 */
export type Claim = { era: 'legacy' } | { era: 'modern'; meta: Json } | { era: 'refused'; error: RpcErrorBody };

const LEGACY: Claim = { era: 'legacy' };

export function claimOf(params: unknown): Claim {
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta) || meta[META_VERSION] === undefined) return LEGACY;
  const requested = meta[META_VERSION];
  if (typeof requested !== 'string' || !MODERN_VERSIONS.includes(requested))
    return {
      era: 'refused',
      error: {
        code: UNSUPPORTED_VERSION,
        message: `Unsupported protocol version ${JSON.stringify(requested)}: hub speaks ${MODERN_VERSIONS.join(', ')} per request (or 2025 versions after initialize).`,
        data: { supported: [...MODERN_VERSIONS], requested },
      },
    };
  const problem = envelopeProblem(meta);
  if (problem) return { era: 'refused', error: { code: -32602, message: `Invalid _meta envelope: ${problem}` } };
  return { era: 'modern', meta };
}

function envelopeProblem(meta: Json): string | undefined {
  if (!isObject(meta[META_CAPABILITIES]))
    return `params._meta["${META_CAPABILITIES}"] is required on protocol revision ${MODERN_VERSION} (an object, {} when the client offers nothing)`;
  const info = meta[META_CLIENT_INFO];
  if (info !== undefined && !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'))
    return `params._meta["${META_CLIENT_INFO}"] must be {"name": string, "version": string} when present`;
  const level = meta[META_LOG_LEVEL];
  if (level !== undefined && !(typeof level === 'string' && LOG_LEVELS.includes(level)))
    return `params._meta["${META_LOG_LEVEL}"] must be one of ${LOG_LEVELS.join(', ')} when present`;
  return undefined;
}

/** The revision a request's _meta claims, if any (a cheap check for the hot path). */
export function claimedVersion(meta: unknown): string | undefined {
  if (!isObject(meta)) return undefined;
  const version = meta[META_VERSION];
  return typeof version === 'string' ? version : undefined;
}

/** The error a modern-only method gets when its request carries no envelope at all. */
export function missingEnvelope(method: string): RpcErrorBody {
  return {
    code: -32602,
    message: `Invalid _meta envelope: ${method} belongs to protocol revision ${MODERN_VERSION}, so params._meta must carry "${META_VERSION}": "${MODERN_VERSION}" and "${META_CAPABILITIES}".`,
  };
}

/** What hub says about itself in `server/discover`. */
export interface DiscoverInfo {
  /** The 2025 revisions hub negotiates at initialize (the modern one is added in front). */
  readonly legacyVersions: readonly string[];
  readonly capabilities: Json;
  readonly serverInfo: Json;
  readonly instructions?: string | undefined;
}

/** The `server/discover` result: every revision hub speaks, what it offers, and who it is. */
export function discoverResult(info: DiscoverInfo): Json {
  return {
    resultType: 'complete',
    supportedVersions: [...MODERN_VERSIONS, ...info.legacyVersions],
    capabilities: info.capabilities,
    ...(info.instructions ? { instructions: info.instructions } : {}),
    ...CACHE_FIELDS['server/discover'],
    _meta: { [META_SERVER_INFO]: info.serverInfo },
  };
}

/**
 * A result as a modern client must get it: `resultType` (kept when the result already says it, as
 * `input_required` does), cache fields on cacheable methods, and hub's serverInfo in _meta.
 */
export function modernResult(method: string | undefined, result: Json, serverInfo: Json): Json {
  const meta = isObject(result._meta) ? result._meta : {};
  return {
    resultType: 'complete',
    ...(method !== undefined && CACHE_FIELDS[method]),
    ...result,
    _meta: { ...meta, [META_SERVER_INFO]: serverInfo },
  };
}
