// Versions are compared as versions (semver), not as text: "1.10.0" is newer than "1.9.0".
import { describe, expect, test } from 'vitest';
import { versionMatches } from '../../../src/registry/install/version-match.js';

describe('versionMatches', () => {
  test('a range is satisfied by a version a text compare would put before it', () => {
    expect('1.10.0' < '1.9.0').toBe(true); // what a string compare believes
    expect(versionMatches('1.10.0', '^1.9.0')).toBe(true);
    expect(versionMatches('1.10.0', '~1.10.0')).toBe(true);
    expect(versionMatches('1.10.0', '1.x')).toBe(true);
    expect(versionMatches('1.9.0', '^1.10.0')).toBe(false);
    expect(versionMatches('2.0.0', '^1.9.0')).toBe(false);
  });

  test('exact versions, no range, no installed version, and dist-tags', () => {
    expect(versionMatches('1.2.3', '1.2.3')).toBe(true);
    expect(versionMatches('1.2.3', '=1.2.3')).toBe(true);
    expect(versionMatches('1.2.3', '1.2.4')).toBe(false);
    expect(versionMatches('1.2.3', undefined)).toBe(true);
    expect(versionMatches(undefined, '1.2.3')).toBe(false);
    // Only npm knows what a tag points at: the install goes on and asks it.
    expect(versionMatches('1.2.3', 'latest')).toBe(false);
    expect(versionMatches('latest', 'latest')).toBe(true);
  });
});
