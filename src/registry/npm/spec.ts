// Hand-written on purpose: npm-package-arg accepts git URLs, tarballs, file paths and aliases,
// all of which hub refuses (an install names a registry package); these few rules are exactly
// what may reach npm's command line after `--`.
import { HubError } from '../../core/errors.js';
import { cut } from '../../core/clip.js';

/** A validated npm registry spec: a package name and an optional version, range or tag. */
export interface NpmSpec {
  readonly name: string;
  readonly range: string | undefined;
  /** What is passed to npm after `--`. */
  readonly spec: string;
}

// npm's rules for new package names (lowercase, URL-safe, optional @scope/), minus a leading
// `-`, `.` or `_` so nothing can be read as a flag or a hidden path.
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// Exact versions, ^/~/x ranges, * and dist-tags; no spaces, `<`, `>` or `|` (shell characters).
const RANGE = /^[A-Za-z0-9^~*=][A-Za-z0-9^~*=.+_-]*$/;
const MAX_NAME = 214;
const MAX_RANGE = 64;

const ACCEPTED =
  'registry.install accepts only an npm package name with an optional version, range or tag ' +
  '(for example "@modelcontextprotocol/server-memory", "some-server@1.2.3" or "some-server@latest")';

function kindOf(raw: string): string | undefined {
  if (raw.length === 0) return 'is empty';
  if (raw.startsWith('-')) return 'starts with "-" (it would be read as an npm option)';
  if (/^(git\+|git:|github:|gitlab:|bitbucket:|gist:)/i.test(raw)) return 'is a git spec';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return 'is a URL';
  if (/^file:/i.test(raw)) return 'is a file: spec';
  if (/^npm:/i.test(raw) || /@npm:/i.test(raw)) return 'is an npm: alias';
  if (/[;&|$`()<>'"\\!{}[\]?#]/.test(raw)) return 'contains shell characters';
  if (/\s/.test(raw)) return 'contains whitespace';
  if (/^(\.{1,2}(\/|$)|\/|~)/.test(raw) || /\.(tgz|tar|tar\.gz)$/i.test(raw)) return 'is a path';
  if (/^[^@/]+\/[^/]+$/.test(raw)) return 'looks like a GitHub user/repo shorthand';
  return undefined;
}

/** Validates an npm spec before anything runs; throws INVALID_INPUT naming "package" otherwise. */
export function parseNpmSpec(raw: string): NpmSpec {
  const shown = JSON.stringify(cut(raw, 80));
  const refuse = (why: string): never => {
    throw new HubError(
      'INVALID_INPUT',
      `Field "package" ${shown} ${why}: ${ACCEPTED}; paths, URLs, git/file specs, aliases, flags and shell characters are refused.`,
    );
  };
  const kind = kindOf(raw);
  if (kind) return refuse(kind);
  // The version separator is the first @ after the (optional) scope's leading @.
  const at = raw.indexOf('@', raw.startsWith('@') ? 1 : 0);
  const name = at === -1 ? raw : raw.slice(0, at);
  const range = at === -1 ? undefined : raw.slice(at + 1);
  if (name.length > MAX_NAME || !NAME.test(name)) {
    return refuse(
      name !== name.toLowerCase()
        ? 'has uppercase letters (npm names are lowercase)'
        : 'is not a valid npm package name',
    );
  }
  if (range !== undefined && (range.length === 0 || range.length > MAX_RANGE || !RANGE.test(range))) {
    return refuse('has an invalid version, range or tag after "@"');
  }
  return { name, range, spec: raw };
}

/** The package name without its scope (npx picks the bin named after it). */
export const unscopedName = (name: string): string => name.replace(/^@[^/]+\//, '');
