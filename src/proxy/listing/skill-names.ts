// Skills under hub's names (<server>-<skill>) and URIs, and the paths that stay inside a skill's root.
import { createHash } from 'node:crypto';

// Skills (SEP-2640, docs/skills.md) under hub's names. A child's skill `git` at
// `skill://tools/git/SKILL.md` is listed by hub as `<server>-git` at `skill://tools/<server>-git/SKILL.md`,
// every file of it under that root: two servers' skills never collide, and a skill's name says
// whose it is, as a tool's does. Agent Skills names allow lowercase letters, digits and single
// hyphens and must equal the skill's folder, so the prefix is "<server>-" (not the tools' "_")
// and the folder is renamed with it; the SKILL.md hub serves says the same name in its
// frontmatter (rewriteSkillName), and its digest is of those bytes. Zero-dependency.

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
export const SKILL_FILE = 'SKILL.md';
/** Agent Skills' name rule (1-64 characters). */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const sha256Hex = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The root of the skill whose SKILL.md is at uri (no trailing slash), or undefined when uri is not `…/<folder>/SKILL.md`. */
export function skillRoot(uri: string): string | undefined {
  if (!uri.endsWith(`/${SKILL_FILE}`)) return undefined;
  const root = uri.slice(0, -SKILL_FILE.length - 1);
  const folder = root.slice(root.lastIndexOf('/') + 1);
  return /^[a-z][a-z0-9+.-]*:\/\/./i.test(root) && folder !== '' && !root.endsWith('//') ? root : undefined;
}

/** The name hub lists a server's skill under, or undefined when it cannot be a valid skill name. */
export function exposedSkillName(server: string, name: string): string | undefined {
  const joined = `${server}-${name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return joined.length <= 64 && NAME.test(joined) ? joined : undefined;
}

/** The root hub lists: the child's root with its last segment (the folder) renamed. */
export const exposedRootOf = (root: string, exposedName: string): string =>
  `${root.slice(0, root.lastIndexOf('/') + 1)}${exposedName}`;

// A segment that could leave its folder once decoded: empty, ".", "..", or holding "/", "\" or NUL.
function unsafeSegment(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return true;
  }
  return decoded === '' || decoded === '.' || decoded === '..' || /[/\\\0]/.test(decoded);
}

/** The path of uri under root ("SKILL.md", "references/a.md"), or undefined when uri is not strictly inside root. */
export function pathUnder(root: string, uri: string): string | undefined {
  if (!uri.startsWith(`${root}/`)) return undefined;
  const rest = uri.slice(root.length + 1).split(/[?#]/)[0]!;
  if (rest === '' || rest.split('/').some(unsafeSegment)) return undefined;
  return rest;
}

/**
 * The SKILL.md text with its frontmatter's name set to `name` (the one line `name: …` between the
 * leading `---` lines); undefined when the text has no such frontmatter.
 */
export function rewriteSkillName(text: string, name: string): string | undefined {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const open = /^---\r?\n/.exec(body);
  if (!open) return undefined;
  const end = /\r?\n---(\r?\n|$)/.exec(body.slice(open[0].length - 1));
  if (!end) return undefined;
  const yamlEnd = open[0].length - 1 + end.index;
  const yaml = body.slice(open[0].length, yamlEnd);
  const lines = yaml.split('\n');
  const at = lines.findIndex(line => /^name\s*:/.test(line));
  if (at < 0) return undefined;
  lines[at] = `name: ${name}${lines[at]!.endsWith('\r') ? '\r' : ''}`;
  return `${bom}${body.slice(0, open[0].length)}${lines.join('\n')}${body.slice(yamlEnd)}`;
}

/** The integrity key of a skill (surface-integrity.ts), by the URI hub lists its SKILL.md at. */
export const skillKey = (exposedUri: string): string => `skill:${exposedUri}`;
