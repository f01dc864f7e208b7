// start_process sandbox "project" through the ProcessManager: a project inside the person's HOME
// (the usual place) is writable while the rest of HOME is not and its secrets are hidden; a
// working folder whose project would be HOME itself or HUB_HOME is refused, naming the field.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { groupMembers, managerIn } from '../../helpers/processes.js';

const never = new AbortController().signal;

async function personHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-person-'));
  onTestFinished(() => rm(home, { recursive: true, force: true }));
  await mkdir(join(home, '.ssh'), { mode: 0o700 });
  await writeFile(join(home, '.ssh/id_rsa'), 'PRIVATE', { mode: 0o600 });
  await writeFile(join(home, '.npmrc'), '//registry/:_authToken=SECRET');
  await writeFile(join(home, '.bashrc'), '# own\n');
  return home;
}

test('a project inside HOME is writable; the rest of HOME is read-only and its secrets hidden', async () => {
  const hubHome = await makeHubHome();
  const person = await personHome();
  const project = join(person, 'code/app');
  await mkdir(join(project, '.git'), { recursive: true });
  await writeFile(join(person, 'notes.txt'), 'readable\n');
  const { manager } = await managerIn(hubHome);
  const command = [
    'echo built > out.txt',
    'cat ../../notes.txt',
    '(echo evil >> ../../.bashrc) 2>/dev/null || echo bashrc-refused',
    '(mkdir -p ../../.config/autostart) 2>/dev/null || echo autostart-refused',
    'cat ../../.ssh/id_rsa ../../.npmrc 2>/dev/null | grep -q . && echo SECRET-READ || echo secrets-hidden',
    `ls ${hubHome} | grep -q . && echo HUB-HOME-SEEN || echo hub-home-hidden`,
  ].join('; ');
  const { record } = await manager.start({ command, cwd: project, sandbox: 'project' }, { timeoutMs: 30_000 }, never, {
    env: { ...process.env, HOME: person },
  });
  expect(record).toMatchObject({ status: 'exited', exitCode: 0, sandbox: { project, network: 'host' } });
  const log = readFileSync(record.logFile, 'utf8');
  expect(log.split('\n')).toEqual([
    'readable',
    'bashrc-refused',
    'autostart-refused',
    'secrets-hidden',
    'hub-home-hidden',
    '',
  ]);
  expect(readFileSync(join(project, 'out.txt'), 'utf8')).toBe('built\n');
  expect(readFileSync(join(person, '.bashrc'), 'utf8')).toBe('# own\n');
  expect(existsSync(join(person, '.config'))).toBe(false);
  expect(groupMembers(record.pid)).toEqual([]);
});

test('a working folder whose project would be HOME or HUB_HOME is refused, naming the field and nothing started', async () => {
  const hubHome = await makeHubHome();
  const person = await personHome();
  const { manager } = await managerIn(hubHome);
  const base = { env: { ...process.env, HOME: person } };
  await expect(
    manager.start({ command: 'true', cwd: person, sandbox: 'project' }, undefined, never, base),
  ).rejects.toThrow(/Field "sandbox": its project folder would be ".*", which holds your home folder/);
  await expect(
    manager.start({ command: 'true', cwd: hubHome, sandbox: 'project' }, undefined, never, base),
  ).rejects.toThrow(/Field "sandbox": .*HUB_HOME/);
  expect(await manager.list({})).toEqual([]);
});
