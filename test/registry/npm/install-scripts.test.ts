// Finding packages whose install scripts were skipped (a real folder tree), and the explanation a
// native-module start failure gets.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { allowedNames, explainNativeFailure, findInstallScripts } from '../../../src/registry/npm/scripts.js';
import { makeHubHome } from '../../helpers/home.js';

async function pkg(dir: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
}

// What Node prints when sqlite3 was installed without its build (mcp-server-sqlite-npx).
const SQLITE_STDERR = `/srv/servers/sqlite/node_modules/bindings/bindings.js:126
  err = new Error(
        ^

Error: Could not locate the bindings file. Tried:
 → /srv/servers/sqlite/node_modules/sqlite3/build/node_sqlite3.node
 → /srv/servers/sqlite/node_modules/sqlite3/build/Release/node_sqlite3.node
    at bindings (/srv/servers/sqlite/node_modules/bindings/bindings.js:126:9)
    at Object.<anonymous> (/srv/servers/sqlite/node_modules/sqlite3/lib/sqlite3-binding.js:1:37)`;

describe('install scripts', () => {
  test('finds lifecycle scripts and binding.gyp in nested and scoped packages', async () => {
    const dir = await makeHubHome();
    const modules = join(dir, 'node_modules');
    await pkg(join(modules, 'plain'), { name: 'plain', version: '1.0.0', scripts: { test: 'x' } });
    await pkg(join(modules, 'sqlite3'), {
      name: 'sqlite3',
      version: '5.1.7',
      scripts: { install: 'prebuild-install -r napi || node-gyp rebuild' },
    });
    await pkg(
      join(modules, '@scope', 'gyp-only'),
      { name: '@scope/gyp-only', version: '2.0.0' },
      { 'binding.gyp': '{}' },
    );
    await pkg(join(modules, 'plain', 'node_modules', 'keytar'), {
      name: 'keytar',
      version: '7.9.0',
      scripts: { postinstall: 'node x.js', preinstall: 'echo hi' },
    });
    const found = await findInstallScripts(dir);
    expect(found).toEqual([
      { name: '@scope/gyp-only', version: '2.0.0', scripts: { install: 'node-gyp rebuild' } },
      { name: 'keytar', version: '7.9.0', scripts: { preinstall: 'echo hi', postinstall: 'node x.js' } },
      { name: 'sqlite3', version: '5.1.7', scripts: { install: 'prebuild-install -r napi || node-gyp rebuild' } },
    ]);
    expect(allowedNames(found, false)).toEqual([]);
    expect(allowedNames(found, true)).toEqual(['@scope/gyp-only', 'keytar', 'sqlite3']);
    expect(allowedNames(found, ['sqlite3', 'not-there'])).toEqual(['sqlite3']);
  });

  test('a native-module failure names the package from the stack and the exact call', () => {
    const skipped = [
      { name: 'esbuild', version: '0.25.0', scripts: { postinstall: 'node install.js' } },
      { name: 'sqlite3', version: '5.1.7', scripts: { install: 'prebuild-install -r napi || node-gyp rebuild' } },
    ];
    expect(explainNativeFailure(SQLITE_STDERR, skipped, { package: 'mcp-server-sqlite-npx', name: 'sqlite' })).toBe(
      'The server failed to load a native module: sqlite3 must run its install scripts to build it, which hub skips unless allowed: ' +
        'sqlite3@5.1.7 (install: prebuild-install -r napi || node-gyp rebuild). ' +
        'Install it again with registry.install { package: "mcp-server-sqlite-npx", name: "sqlite", allowScripts: ["sqlite3"] }.',
    );
    expect(
      explainNativeFailure(
        'Error: was compiled against a different Node.js version using NODE_MODULE_VERSION 115',
        skipped,
      ),
    ).toContain('allowScripts: ["sqlite3"]');
    expect(explainNativeFailure('Error: connect ECONNREFUSED 127.0.0.1:6379', skipped)).toBeUndefined();
    expect(explainNativeFailure(SQLITE_STDERR, [])).toContain('allowScripts: true');
  });
});
