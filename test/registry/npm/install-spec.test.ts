// Pure install checks: which npm specs are accepted, which bin npx would run, which names are allowed.
import { describe, expect, test } from 'vitest';
import { chooseBin } from '../../../src/registry/npm/bin.js';
import { checkEnvKeys, checkServerName } from '../../../src/registry/install/target.js';
import { formatCommandLine } from '../../../src/core/shell-quote.js';
import { npmInstallArgs } from '../../../src/registry/npm/install.js';
import { parseNpmSpec } from '../../../src/registry/npm/spec.js';

describe('parseNpmSpec', () => {
  test.each([
    ['@modelcontextprotocol/server-memory', '@modelcontextprotocol/server-memory', undefined],
    ['@modelcontextprotocol/server-memory@2026.8.31', '@modelcontextprotocol/server-memory', '2026.8.31'],
    ['some-server', 'some-server', undefined],
    ['some-server@^1.2.0', 'some-server', '^1.2.0'],
    ['some-server@~1.2', 'some-server', '~1.2'],
    ['some-server@latest', 'some-server', 'latest'],
    ['some-server@next', 'some-server', 'next'],
    ['some.server_x@1.0.0-beta.1', 'some.server_x', '1.0.0-beta.1'],
    ['a@*', 'a', '*'],
  ])('accepts %s', (raw, name, range) => {
    expect(parseNpmSpec(raw)).toEqual({ name, range, spec: raw });
  });

  test.each([
    ['x; touch f', /shell characters/],
    ['$(id)', /shell characters/],
    ['`id`', /shell characters/],
    ['a|b', /shell characters/],
    ['a&&b', /shell characters/],
    ['a>b', /shell characters/],
    ["a'b", /shell characters/],
    ['../x', /path/],
    ['./x', /path/],
    ['/tmp/x', /path/],
    ['~/x', /path/],
    ['x.tgz', /path/],
    ['--registry=http://evil', /starts with "-"/],
    ['-x', /starts with "-"/],
    ['https://example.com/x.tgz', /URL/],
    ['http://example.com/x', /URL/],
    ['git+https://github.com/a/b.git', /git spec/],
    ['github:a/b', /git spec/],
    ['git://github.com/a/b', /git spec/],
    ['file:../x', /file: spec/],
    ['npm:other@1', /alias/],
    ['x@npm:other', /alias/],
    ['user/repo', /GitHub/],
    ['some server', /whitespace/],
    ['Some-Server', /uppercase/],
    ['', /empty/],
    ['x@', /version/],
    ['x@1.0.0 || 2', /shell|whitespace/],
    ['_private', /not a valid npm package name/],
    ['.hidden', /not a valid npm package name/],
  ])('refuses %j, naming the field and what is accepted', (raw, why) => {
    expect(() => parseNpmSpec(raw)).toThrow(why);
    expect(() => parseNpmSpec(raw)).toThrow(/^Field "package" .*accepts only an npm package name/);
  });
});

describe('chooseBin', () => {
  test('a string bin is the package bin', () => {
    expect(chooseBin('@scope/tool', 'dist/index.js')).toEqual({ name: 'tool', file: 'dist/index.js' });
  });
  test('the only bin wins whatever its name', () => {
    expect(chooseBin('@modelcontextprotocol/server-memory', { 'mcp-server-memory': 'dist/index.js' })).toEqual({
      name: 'mcp-server-memory',
      file: 'dist/index.js',
    });
  });
  test('of several, the one named after the unscoped package', () => {
    expect(chooseBin('@a/thing', { other: 'o.js', thing: './t.js' })).toEqual({ name: 'thing', file: 't.js' });
  });
  test('several bins and none named after the package is an error naming them', () => {
    expect(() => chooseBin('@a/thing', { x: 'x.js', y: 'y.js' })).toThrow(/several bins \("x", "y"\)/);
  });
  test('no bin is an error', () => {
    expect(() => chooseBin('thing', undefined)).toThrow(/declares no "bin"/);
  });
  test('a bin outside the package is refused', () => {
    expect(() => chooseBin('thing', '../../evil.js')).toThrow(/outside its own folder/);
  });
});

describe('server names and env keys', () => {
  test.each(['memory', 'a', 'my-server-2', 'abcdefghijklmnopqrst'])('accepts %s', name => {
    expect(checkServerName(name)).toBe(name);
  });
  test.each(['Memory', '1abc', 'abcdefghijklmnopqrstu', 'a_b', 'a.b', ''])('refuses %j', name => {
    expect(() => checkServerName(name)).toThrow(/Field "name"/);
  });
  test.each(['registry', 'hub', 'process', 'hub-consent', 'hub-x'])('%s is reserved', name => {
    expect(() => checkServerName(name)).toThrow(/^Field "name" "[\w-]+" is reserved .*"hub-"/);
  });
  test.each(['hubble', 'github', 'mcp-hub'])('%s is not reserved', name => {
    expect(checkServerName(name)).toBe(name);
  });
  test('env keys must be variable names', () => {
    expect(() => checkEnvKeys({ GOOD_KEY: '1', 'BAD-KEY': '2' })).toThrow(/"BAD-KEY"/);
    expect(() => checkEnvKeys({ API_KEY: 'x' })).not.toThrow();
  });
});

describe('npm argv', () => {
  test('never a shell: -- before the spec, no --prefix (npm reads the user npmrc), scripts always off at install', () => {
    const args = npmInstallArgs('x@1');
    expect(args.slice(0, 2)).toEqual(['install', '--ignore-scripts']);
    expect(args).not.toContain('--prefix');
    expect(args.slice(-2)).toEqual(['--', 'x@1']);
    expect(args).toContain('--omit=dev');
  });
  test('command lines are shown quoted where needed', () => {
    expect(formatCommandLine('node', ['/a b/c.js', 'x'])).toBe("node '/a b/c.js' x");
  });
});
