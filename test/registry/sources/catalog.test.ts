// The bundled catalog: enough well-known servers, each well-formed, and searchable offline.
import { describe, expect, test } from 'vitest';
import { catalogEntries, findCatalogEntry, searchCatalog } from '../../../src/registry/sources/catalog.js';
import { isValidServerName } from '../../../src/registry/sources/server-name.js';
import { isRelativePathArg } from '../../../src/registry/install/data-dir.js';

describe('catalog', () => {
  test('has at least 25 entries with valid names and unique packages and names', () => {
    const entries = catalogEntries();
    expect(entries.length).toBeGreaterThanOrEqual(25);
    for (const entry of entries) {
      expect(isValidServerName(entry.name), entry.package).toBe(true);
      expect(entry.description.length, entry.package).toBeGreaterThan(10);
    }
    expect(new Set(entries.map(entry => entry.package)).size).toBe(entries.length);
    expect(new Set(entries.map(entry => entry.name)).size).toBe(entries.length);
  });

  test('includes the reference servers with their args and env', () => {
    for (const pkg of ['memory', 'filesystem', 'everything', 'sequential-thinking', 'github', 'postgres']) {
      expect(findCatalogEntry(`@modelcontextprotocol/server-${pkg}`), pkg).toBeDefined();
    }
    expect(findCatalogEntry('@modelcontextprotocol/server-filesystem')?.argsHint).toMatch(/director/);
    expect(findCatalogEntry('@modelcontextprotocol/server-github')?.env).toEqual([
      expect.objectContaining({ name: 'GITHUB_PERSONAL_ACCESS_TOKEN', required: true, secret: true }),
    ]);
    expect(findCatalogEntry('@brave/brave-search-mcp-server')?.name).toBe('brave-search');
  });

  test('search matches names, titles, keywords and descriptions, best first', () => {
    expect(searchCatalog('github', 5)[0]?.package).toBe('@modelcontextprotocol/server-github');
    expect(searchCatalog('postgres', 10).map(candidate => candidate.package)).toContain(
      '@modelcontextprotocol/server-postgres',
    );
    expect(searchCatalog('browser', 10).map(candidate => candidate.package)).toEqual(
      expect.arrayContaining(['@playwright/mcp', 'chrome-devtools-mcp']),
    );
    expect(searchCatalog('sqlite', 3)[0]).toMatchObject({
      name: 'sqlite',
      package: 'mcp-server-sqlite-npx',
      args: ['{data}/data.sqlite'],
      allowScripts: ['sqlite3'],
    });
    expect(searchCatalog('zzzz-no-such-thing', 10)).toEqual([]);
    expect(searchCatalog('database', 50).length).toBeGreaterThanOrEqual(4);
  });

  test('no default args name a relative path: it would land in the install folder uninstall deletes', () => {
    for (const entry of catalogEntries()) expect(entry.args.filter(isRelativePathArg), entry.package).toEqual([]);
    for (const arg of ['./data.sqlite', '../x', 'data.sqlite', 'dir/file', '--db=./x.db', '~/x'])
      expect(isRelativePathArg(arg), arg).toBe(true);
    for (const arg of [
      '{data}/data.sqlite',
      '/abs/path',
      'postgresql://localhost/mydb',
      '--read-only',
      '--stdio',
      '--db={data}/x.db',
    ])
      expect(isRelativePathArg(arg), arg).toBe(false);
  });

  test('entries that keep data point it at the data folder, and say which install scripts they need', () => {
    expect(findCatalogEntry('@modelcontextprotocol/server-memory')?.dataEnv).toEqual({
      MEMORY_FILE_PATH: 'memory.jsonl',
    });
    for (const entry of catalogEntries())
      for (const key of Object.keys(entry.dataEnv))
        expect(
          entry.env.map(env => env.name),
          entry.package,
        ).toContain(key);
    expect(findCatalogEntry('mcp-server-sqlite-npx')?.scripts).toEqual(['sqlite3']);
  });
});
