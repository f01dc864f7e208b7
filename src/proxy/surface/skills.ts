// The installed servers' skills as one list and one resource source, withheld when changed.
import { ErrorCode, ReadResourceResultSchema, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { CachedSkill, ServerWithTools } from '../../store/schema.js';
import { RpcError } from '../../wire/rpc-error.js';
import { inInstallOrder } from '../listing/resource-lists.js';
import { pathUnder, rewriteSkillName, sha256Hex } from '../listing/skill-names.js';
import type { Slots } from '../slots/slots.js';
import { forwardRequest } from './forward.js';
import type { ResourceSource } from './resource-source.js';

// The installed servers' skills (SEP-2640, docs/skills.md), as one list and one ResourceSource:
// `skills/list` and `skills/get` answer from the cached, approved entries (no child is started to
// list); `resources/read` of a skill file goes to the child that serves it under the child's own
// URI, and a SKILL.md is passed on only while its bytes are the ones a person approved
// (integrity, listing/surface-integrity.ts), with hub's name for the skill in its frontmatter.

type Json = Record<string, unknown>;
// Not listed to clients: where the skill came from and hub's own bookkeeping.
const HUB_FIELDS = ['sourceRoot', 'textPrint', 'text'] as const;

export interface SkillSurface {
  /** Every listed skill, as clients get it, in install order. */
  list(): Json[];
  /** The listed skill whose SKILL.md is at uri. */
  get(uri: string): Json | undefined;
  readonly resources: ResourceSource;
}

interface Hit {
  readonly server: string;
  readonly skill: CachedSkill;
  readonly root: string;
}

const rootOf = (skill: CachedSkill): string => skill.uri.slice(0, -'/SKILL.md'.length);
const asListed = (skill: CachedSkill): Json =>
  Object.fromEntries(Object.entries(skill).filter(([key]) => !(HUB_FIELDS as readonly string[]).includes(key)));

export function createSkillSurface(deps: {
  readonly slots: Slots;
  /** The records whose skills are listed (not the disabled ones). */
  readonly records: () => readonly ServerWithTools[];
  readonly timeoutMs: number;
}): SkillSurface {
  const all = (): Hit[] =>
    inInstallOrder(deps.records()).flatMap(record =>
      (record.surface?.skills ?? []).map(skill => ({ server: record.name, skill, root: rootOf(skill) })),
    );
  // Servers that offer skills, with the schemes their skills use (skill: when none is listed now).
  const offering = (): [string, string[]][] =>
    deps.records().flatMap(record => {
      const skills = record.surface?.skills;
      if (skills === undefined) return [];
      const schemes = skills.map(skill => skill.sourceRoot.slice(0, skill.sourceRoot.indexOf(':') + 1));
      return [[record.name, schemes.length > 0 ? schemes : ['skill:']]];
    });
  // The skill whose root (hub's) the URI starts with; the longest root wins.
  const find = (uri: string, key: (hit: Hit) => string = hit => hit.root): Hit | undefined =>
    all()
      .filter(hit => uri.startsWith(`${key(hit)}/`))
      .sort((a, b) => key(b).length - key(a).length)[0];

  const read = async (uri: string, call: Parameters<ResourceSource['read']>[1]): Promise<ReadResourceResult> => {
    const hit = find(uri);
    if (!hit) {
      const own = find(uri, other => other.skill.sourceRoot);
      throw new RpcError(
        ErrorCode.InvalidParams,
        own
          ? `${uri} is server "${own.server}"'s own URI for its skill; through hub, read it as ${own.root}/${uri.slice(own.skill.sourceRoot.length + 1)} (skills/list shows every skill's files).`
          : `${uri} is not a file of any skill hub lists now: a skill whose SKILL.md changed is withheld until a person approves it (registry.list { server } says which); skills/list shows the others.`,
      );
    }
    const { server, skill, root } = hit;
    const name = skill.frontmatter.name;
    const path = pathUnder(root, uri);
    if (path === undefined)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `${uri} is outside the root of skill "${name}" (${root}/): hub reads only files inside a skill's folder, with no "..", "." or empty segment.`,
      );
    const slot = deps.slots.get(server);
    if (!slot || deps.slots.closed)
      throw new RpcError(ErrorCode.InternalError, `Server "${server}" is no longer installed or hub is shutting down.`);
    const childUri = `${skill.sourceRoot}/${path}`;
    const request = { method: 'resources/read', params: { uri: childUri }, needs: 'resources' } as const;
    const result = await forwardRequest(slot, request, ReadResourceResultSchema, call, deps.timeoutMs);
    const mapped = (entryUri: string) =>
      entryUri.startsWith(`${skill.sourceRoot}/`) ? `${root}/${entryUri.slice(skill.sourceRoot.length + 1)}` : uri;
    if (path !== 'SKILL.md')
      return { ...result, contents: result.contents.map(entry => ({ ...entry, uri: mapped(entry.uri) })) };
    const content = result.contents.find(entry => entry.uri === childUri) ?? result.contents[0];
    const text =
      content === undefined
        ? undefined
        : 'text' in content
          ? content.text
          : Buffer.from(content.blob, 'base64').toString();
    if (text === undefined || sha256Hex(text) !== skill.textPrint)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `The SKILL.md of skill "${name}" changed since a person approved it (server "${server}"): hub withholds it until they approve the new text: \`hub-mcp servers approve ${server}\` in a terminal, or registry.configure { server: "${server}", approve: ["*"] } (asks the user).`,
      );
    const served = rewriteSkillName(text, name) ?? text;
    return { ...result, contents: [{ uri, mimeType: content?.mimeType ?? 'text/markdown', text: served }] };
  };

  return {
    list: () => all().map(hit => asListed(hit.skill)),
    get(uri) {
      const hit = all().find(candidate => candidate.skill.uri === uri);
      return hit && asListed(hit.skill);
    },
    resources: {
      resources: () => Promise.resolve([]),
      templates: () => Promise.resolve([]),
      // Hub's skill URIs, the children's own URIs of their skills (refused with the right one), and
      // hub-named URIs of a server that offers skills (a withheld skill's: refused saying so).
      owns: uri =>
        find(uri) !== undefined ||
        find(uri, hit => hit.skill.sourceRoot) !== undefined ||
        offering().some(
          ([server, schemes]) =>
            schemes.some(scheme => uri.startsWith(scheme)) &&
            uri.split('/').some(segment => segment.startsWith(`${server}-`)),
        ),
      read,
      subscribe: () => Promise.reject(new RpcError(ErrorCode.InvalidParams, 'Skill files cannot be subscribed to.')),
      unsubscribe: () => Promise.resolve(),
    },
  };
}
