// Issue 26 item 1: a project file that is not a regular file in its repository is ignored, with
// one warning naming it (the FIFO and /dev/zero cases run end to end in
// test/e2e/project-file-hostile.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { readProjectFile, warnIgnored } from '../../../src/proxy/exposure/project-file.js';

async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'hub-project-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, '.git'));
  return root;
}

const VALID = JSON.stringify({ servers: ['echo'] });

test('a symlink inside the repository is followed; one that leaves it is not', async () => {
  const root = await repo();
  await mkdir(join(root, 'config'));
  await writeFile(join(root, 'config', 'hub.json'), VALID);
  await mkdir(join(root, 'app'));
  await symlink('../config/hub.json', join(root, 'app', '.hub.json'));
  expect(readProjectFile(join(root, 'app', '.hub.json'))).toMatchObject({ kind: 'project' });

  const outside = await repo();
  await writeFile(join(outside, 'hub.json'), VALID);
  await rm(join(root, 'app', '.hub.json'));
  await symlink(join(outside, 'hub.json'), join(root, 'app', '.hub.json'));
  const scope = readProjectFile(join(root, 'app', '.hub.json'));
  expect(scope).toMatchObject({ kind: 'invalid' });
  expect(scope.kind === 'invalid' && scope.error).toMatch(
    /\.hub\.json: is a symbolic link to .*outside its repository/,
  );
});

test('a socket, a device, a folder or a link loop named .hub.json is not opened; a file over 64 KB is not read', async () => {
  const root = await repo();
  const file = join(root, '.hub.json');
  const server = createServer();
  await new Promise<void>(resolve => server.listen(file, resolve));
  try {
    expect(readProjectFile(file)).toMatchObject({ error: expect.stringMatching(/is a socket, not a regular file/) });
  } finally {
    await new Promise(resolve => server.close(resolve));
  }
  await rm(file, { force: true });
  if (process.getuid?.() === 0) {
    execFileSync('mknod', [file, 'c', '1', '3']); // /dev/null's numbers
    expect(readProjectFile(file)).toMatchObject({ error: expect.stringMatching(/is a device, not a regular file/) });
    await rm(file);
  }
  await mkdir(file);
  expect(readProjectFile(file)).toMatchObject({ error: expect.stringMatching(/is a folder, not a regular file/) });
  await rm(file, { recursive: true });
  await symlink('.hub.json', file); // a link to itself
  expect(readProjectFile(file)).toMatchObject({ error: expect.stringMatching(/cannot be read \(ELOOP/) });
  await rm(file);
  await writeFile(file, `{"servers": ["echo"]${' '.repeat(70_000)}}`);
  expect(readProjectFile(file)).toMatchObject({ error: expect.stringMatching(/larger than 65536 bytes/) });
});

test('an ignored file is warned about once, however often it is looked up; again after it was read well', async () => {
  const root = await repo();
  const file = join(root, '.hub.json');
  execFileSync('mkfifo', [file]);
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  for (let i = 0; i < 5; i += 1) warnIgnored(readProjectFile(file), warn);
  expect(warnings).toEqual([expect.stringMatching(/^Ignoring the project file: .*\.hub\.json: is a FIFO/)]);
  await rm(file);
  await writeFile(file, VALID);
  warnIgnored(readProjectFile(file), warn);
  await rm(file);
  execFileSync('mkfifo', [file]);
  warnIgnored(readProjectFile(file), warn);
  expect(warnings).toHaveLength(2);
});
