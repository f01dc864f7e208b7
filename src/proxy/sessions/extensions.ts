// Which `capabilities.extensions` (MCP 2026-07-28: new features are negotiated there) a child is
// offered and a session supports. Zod- and SDK-free. One entry per extension hub carries: add an
// entry to KNOWN_EXTENSIONS, keep the extension's own logic in its own files.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** One extension hub knows how to carry between clients and children. */
export interface ExtensionEntry {
  /** The key under `capabilities.extensions`, e.g. "io.modelcontextprotocol/ui". */
  readonly id: string;
  /** What hub declares to a child when it offers the extension (hub's own settings, never a client's). */
  readonly offer: Json;
  /** Why a client's or child's declaration is unusable (it is then ignored); undefined when it is fine. */
  readonly problem: (declared: Json) => string | undefined;
}

/** One warning: the field (`capabilities.extensions["<id>"]`, or one of its own fields) and what is wrong. */
export const extensionProblem = (id: string, problem: string): string =>
  `capabilities.extensions["${id}"]${problem.startsWith('.') ? '' : ' '}${problem}; the extension was ignored.`;

/** What a peer declared under `extensions`: the known ids it declared usably, and what was wrong. */
export interface DeclaredExtensions {
  readonly ids: ReadonlySet<string>;
  /** One sentence each, naming the field and the fix. */
  readonly problems: readonly string[];
}

/** Reads `capabilities.extensions` against `known`; what is not an object, or unknown, is left out. */
export function declaredExtensions(
  capabilities: Readonly<Json> | undefined,
  known: readonly ExtensionEntry[],
): DeclaredExtensions {
  const ids = new Set<string>();
  const problems: string[] = [];
  const extensions = capabilities?.extensions;
  if (extensions === undefined) return { ids, problems };
  if (!isObject(extensions)) {
    problems.push('capabilities.extensions must be an object keyed by extension id; it was ignored.');
    return { ids, problems };
  }
  for (const entry of known) {
    if (!Object.hasOwn(extensions, entry.id)) continue;
    const declared = extensions[entry.id];
    const problem = isObject(declared)
      ? entry.problem(declared)
      : `must be an object (its settings, {} for none), not ${JSON.stringify(declared) ?? 'undefined'}`;
    if (problem === undefined) ids.add(entry.id);
    else problems.push(extensionProblem(entry.id, problem));
  }
  return { ids, problems };
}

/** Whether a session's initialize declared `id` usably. */
export const supportsExtension = (
  capabilities: Readonly<Json> | undefined,
  known: readonly ExtensionEntry[],
  id: string,
): boolean => declaredExtensions(capabilities, known).ids.has(id);

/**
 * The extensions every child started from now on is offered: each known extension that any
 * session of this core declared so far. It only grows: a child's tool list must not depend on
 * which session happened to start it, nor change when one leaves (each session is filtered on the
 * way out instead).
 */
export class ExtensionOffers {
  readonly #asked = new Set<string>();

  constructor(private readonly known: readonly ExtensionEntry[]) {}

  /** Notes what one session declared; true when that adds an extension children are offered. */
  note(capabilities: Readonly<Json> | undefined): boolean {
    const before = this.#asked.size;
    for (const id of declaredExtensions(capabilities, this.known).ids) this.#asked.add(id);
    return this.#asked.size > before;
  }

  /** `capabilities.extensions` for a child's initialize; undefined when none was asked for. */
  offered(): Record<string, Json> | undefined {
    const entries = this.known.filter(entry => this.#asked.has(entry.id));
    return entries.length === 0 ? undefined : Object.fromEntries(entries.map(entry => [entry.id, entry.offer]));
  }
}
