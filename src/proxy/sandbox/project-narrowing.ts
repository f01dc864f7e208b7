// What a project's .hub.json may do to a server's sandbox: narrow it, never widen it.
import type { ServerSettings } from '../../store/schema.js';
import { readProjectFile } from '../exposure/project-file.js';
import { findProjectFile } from '../exposure/project-lookup.js';

// A project's `.hub.json` may narrow a server's sandbox where that project is open (its "sandbox"
// field, per server), never widen it: the file comes with a repository anyone may have written.
// What it asks beyond the server's own settings is left out, and said in the server's log.

type Sandbox = NonNullable<ServerSettings['sandbox']>;
type Network = NonNullable<Sandbox['network']>;

// none < a list < all < host; two lists meet in the hosts both name.
const reach = (network: Network): number => (typeof network === 'string' ? { none: 0, all: 2, host: 3 }[network] : 1);

function narrowerNetwork(own: Network, asked: Network): { network: Network; widens: boolean } {
  if (Array.isArray(own) && Array.isArray(asked)) {
    const both = asked.filter(host => own.includes(host));
    return { network: both.length > 0 ? both : 'none', widens: both.length < asked.length };
  }
  return reach(asked) <= reach(own) ? { network: asked, widens: false } : { network: own, widens: true };
}

/** The server's sandbox settings as the project narrows them, and what the project asked that was left out. */
export function projectNarrowing(
  name: string,
  own: Sandbox | undefined,
  roots: readonly string[],
): { sandbox: Sandbox | undefined; notes: string[] } {
  const file = findProjectFile(roots.length > 0 ? roots : [process.cwd()]);
  if (file === undefined) return { sandbox: own, notes: [] };
  const scope = readProjectFile(file);
  const asked = scope.kind === 'project' ? scope.sandbox?.[name] : undefined;
  if (asked === undefined) return { sandbox: own, notes: [] };
  const notes: string[] = [];
  const next: Sandbox = { ...own };
  const leftOut = (what: string) =>
    notes.push(`sandbox: ${file} asks to ${what}: left out (a project file can only narrow)`);
  if (asked.network !== undefined) {
    const { network, widens } = narrowerNetwork(own?.network ?? 'all', asked.network);
    if (widens) leftOut(`widen the network to ${JSON.stringify(asked.network)}`);
    if (network === 'all') delete next.network;
    else next.network = network;
  }
  for (const key of ['read', 'write'] as const) {
    const list = asked[key];
    if (list === undefined) continue;
    const kept = (own?.[key] ?? []).filter(path => list.includes(path));
    const extra = list.filter(path => !(own?.[key] ?? []).includes(path));
    if (extra.length > 0) leftOut(`${key} ${extra.join(', ')}`);
    if (kept.length > 0) next[key] = kept;
    else delete next[key];
  }
  return { sandbox: next, notes: [`sandbox: narrowed by ${file}`, ...notes] };
}
