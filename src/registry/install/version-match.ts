// Whether an installed version is what a spec asks for (an exact version or a semver range).
import semver from 'semver';

/**
 * Whether an installed version is what a spec asks for: an exact version, or a ^/~/x range that
 * it satisfies (semver: "1.10.0" satisfies "^1.9.0", which no text compare can tell). No range
 * asks for any version. A dist-tag (latest, next) names a version only npm knows, so only the
 * same text matches, and the install goes on to replace it.
 */
export function versionMatches(installed: string | undefined, range: string | undefined): boolean {
  if (range === undefined) return true;
  if (installed === undefined) return false;
  if (semver.valid(installed) === null || semver.validRange(range) === null) return range === installed;
  return semver.satisfies(installed, range);
}
