// What hub takes from a child's skills/list: entries checked, renamed, each SKILL.md fingerprinted.
import { z } from 'zod';
import type { CachedSkill } from '../../store/schema.js';
import {
  SKILLS_EXTENSION,
  exposedRootOf,
  exposedSkillName,
  pathUnder,
  rewriteSkillName,
  sha256Hex,
  skillRoot,
} from '../listing/skill-names.js';
import type { ChildConnection } from './connection.js';

// What hub takes from a child's `skills/list` (SEP-2640, docs/skills.md): each entry checked on
// its own (a bad one is skipped with its reason), under hub's name and URIs (listing/skill-names.ts),
// with the fingerprint of the child's SKILL.md, which hub reads once here: a skill's text is a
// prompt-injection channel like a tool's description, held under the same integrity
// (listing/surface-integrity.ts). Bounded: pages, skills, and bytes of one SKILL.md.

export const SKILL_LIMITS = { pages: 20, skills: 100, skillMdBytes: 64 * 1024, reviewChars: 16 * 1024 } as const;

const FileSchema = z.looseObject({ uri: z.string(), digest: z.string(), size: z.number() });
const SkillSchema = z.looseObject({
  uri: z.string().max(2048),
  frontmatter: z.looseObject({ name: z.string().max(64), description: z.string().max(1024) }),
  resources: z.union([z.array(FileSchema).max(512), z.literal('dynamic')]),
});
const PageSchema = z.looseObject({ skills: z.array(z.unknown()), nextCursor: z.string().optional() });
const ReadSchema = z.looseObject({
  contents: z.array(z.looseObject({ uri: z.string(), text: z.string().optional(), blob: z.string().optional() })),
});

/** A listed skill as kept while its text waits for a person: the SKILL.md they will read. */
export type IntakeSkill = CachedSkill & { text?: string };

/** The child's own SKILL.md bytes as text; a clear reason when it cannot be taken. */
async function readSkillMd(conn: ChildConnection, uri: string, timeoutMs: number): Promise<string> {
  const result = await conn.request({ method: 'resources/read', params: { uri } }, ReadSchema, { timeout: timeoutMs });
  const content = result.contents.find(entry => entry.uri === uri) ?? result.contents[0];
  const text =
    content?.text ?? (content?.blob === undefined ? undefined : Buffer.from(content.blob, 'base64').toString('utf8'));
  if (text === undefined) throw new Error('its SKILL.md came back empty');
  if (Buffer.byteLength(text) > SKILL_LIMITS.skillMdBytes)
    throw new Error(`its SKILL.md is over hub's limit of ${SKILL_LIMITS.skillMdBytes} bytes`);
  return text;
}

/** One entry under hub's name and URIs, or why it is skipped. */
async function takeSkill(
  conn: ChildConnection,
  server: string,
  entry: unknown,
  timeoutMs: number,
): Promise<IntakeSkill | string> {
  const checked = SkillSchema.safeParse(entry);
  if (!checked.success) return `not a skill entry (${checked.error.issues[0]?.message ?? 'not valid'})`;
  const skill = checked.data;
  const root = skillRoot(skill.uri);
  if (root === undefined) return `uri ${skill.uri} is not …/<folder>/SKILL.md`;
  const name = exposedSkillName(server, skill.frontmatter.name);
  if (name === undefined)
    return `name "${skill.frontmatter.name}" cannot be listed as "${server}-…" (1-64 a-z, 0-9, -)`;
  const exposedRoot = exposedRootOf(root, name);
  const outside = skill.resources === 'dynamic' ? [] : skill.resources.filter(file => !pathUnder(root, file.uri));
  if (outside.length > 0) return `file ${outside[0]!.uri} is outside the skill's root ${root}/`;
  const text = await readSkillMd(conn, skill.uri, timeoutMs);
  const served = rewriteSkillName(text, name);
  if (served === undefined) return 'its SKILL.md has no frontmatter with a name';
  const bytes = Buffer.from(served, 'utf8');
  const resources =
    skill.resources === 'dynamic'
      ? ('dynamic' as const)
      : skill.resources.map(file => {
          const path = pathUnder(root, file.uri)!;
          const uri = `${exposedRoot}/${path}`;
          return path === 'SKILL.md'
            ? { ...file, uri, digest: `sha256:${sha256Hex(bytes)}`, size: bytes.byteLength }
            : { ...file, uri };
        });
  return {
    ...skill,
    uri: `${exposedRoot}/SKILL.md`,
    frontmatter: { ...skill.frontmatter, name },
    resources,
    sourceRoot: root,
    textPrint: sha256Hex(text),
    text: text.slice(0, SKILL_LIMITS.reviewChars),
  };
}

/** The child's skills, every page (bounded); undefined when it does not offer the extension. */
export async function listSkills(
  conn: ChildConnection,
  server: string,
  timeoutMs: number,
): Promise<{ skills: IntakeSkill[]; issues: string[] } | undefined> {
  const extensions = (conn.capabilities as { extensions?: Record<string, unknown> }).extensions;
  if (extensions?.[SKILLS_EXTENSION] === undefined || !conn.capabilities.resources) return undefined;
  const entries: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < SKILL_LIMITS.pages && entries.length < SKILL_LIMITS.skills; pages++) {
    const params = cursor === undefined ? {} : { cursor };
    const page = await conn.request({ method: 'skills/list', params }, PageSchema, { timeout: timeoutMs });
    entries.push(...page.skills);
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  const skills: IntakeSkill[] = [];
  const issues: string[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of entries.slice(0, SKILL_LIMITS.skills).entries()) {
    const taken = await takeSkill(conn, server, entry, timeoutMs).catch((error: Error) => error.message);
    if (typeof taken === 'string') issues.push(`skills[${index}]: ${taken}`);
    else if (!seen.has(taken.uri)) {
      seen.add(taken.uri);
      skills.push(taken);
    }
  }
  if (entries.length > SKILL_LIMITS.skills)
    issues.push(`${entries.length - SKILL_LIMITS.skills} skills over hub's limit of ${SKILL_LIMITS.skills}`);
  return { skills, issues };
}
