// Issue 29 item 2, the session's roots through the built hub: a sandboxed child reads the folders
// the client's roots name and nothing else of the person's HOME; it writes them only once the
// person grants it (`--sandbox-write roots`), which starts it again under the new policy.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, fixture, spawnHub, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords } from '../../proxy/harness.js';

const run = promisify(execFile);

test("a sandboxed child reads the session's roots, writes them only when granted, and sees nothing else of HOME", async () => {
  const hubHome = await makeHubHome();
  const person = await mkdtemp(join(tmpdir(), 'hub-person-'));
  onTestFinished(() => rm(person, { recursive: true, force: true }));
  const project = join(person, 'project');
  await mkdir(project);
  await writeFile(join(project, 'README.md'), 'the project');
  await writeFile(join(person, 'notes.txt'), 'private notes');
  await putRecords(
    openStore(loadConfig({ HUB_HOME: hubHome }).paths),
    commandRecord('files', [fixture('sandbox-escape.mjs')]),
  );
  const hub = await spawnHub(hubHome, { env: { HOME: person }, capabilities: { roots: {} } });
  hub.client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(project).href, name: 'project' }],
  }));
  try {
    const touch = async (args: Record<string, string>) =>
      JSON.parse(textOf(await hub.call('registry_call', { server: 'files', tool: 'touch', arguments: args }))) as {
        ok: boolean;
        got?: string;
        error?: string;
      };
    expect(await touch({ read: join(project, 'README.md') })).toEqual({ ok: true, got: 'the project' });
    expect(await touch({ read: join(person, 'notes.txt') })).toMatchObject({ ok: false, error: 'ENOENT' });
    expect(await touch({ write: join(project, 'out.txt'), text: 'x' })).toMatchObject({ ok: false, error: 'EROFS' });

    await run(process.execPath, [SERVER_JS, 'servers', 'configure', 'files', '--sandbox-write', 'roots'], {
      env: { ...process.env, HUB_HOME: hubHome, HOME: person },
    });
    // Every hub applies it from db.json: the child starts again under the new policy.
    await vi.waitFor(
      async () => expect(await touch({ write: join(project, 'out.txt'), text: 'written' })).toEqual({ ok: true }),
      {
        timeout: 20_000,
        interval: 200,
      },
    );
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('written');
    expect(await touch({ read: join(person, 'notes.txt') })).toMatchObject({ ok: false, error: 'ENOENT' });
  } finally {
    await hub.close();
  }
});
