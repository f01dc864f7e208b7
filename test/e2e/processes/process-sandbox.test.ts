// Issue 29 item 6, end to end through the built hub with the real sandbox (bubblewrap):
// start_process { sandbox: "project" } writes its project and /tmp, cannot write ~/.bashrc nor
// read ~/.ssh, still serves on 127.0.0.1, is killed whole by kill_process, keeps its sandbox on
// restart; a project's .hub.json makes it the default and can only narrow; without it, nothing
// changes (the same command writes ~/.bashrc: the sandbox is what stops it).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf, type HubSession } from '../../helpers/hub.js';
import { listeningPortsOf } from '../../../src/process/listening-ports.js';
import { groupMembers, reapAll } from '../../helpers/processes.js';

const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- fake';

interface View {
  id: string;
  pid: number;
  status: string;
  logFile: string;
  sandbox?: { project: string; network: string };
}

const ok = (result: CallToolResult): Record<string, unknown> => {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
};

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A person's HOME with a key and a .bashrc; a project (a git root) with a package folder. */
async function setup() {
  const person = await tempDir('hub-person-');
  await mkdir(join(person, '.ssh'), { mode: 0o700 });
  await writeFile(join(person, '.ssh/id_rsa'), KEY, { mode: 0o600 });
  await writeFile(join(person, '.bashrc'), '# own\n');
  const project = await tempDir('hub-project-');
  await mkdir(join(project, '.git'));
  await mkdir(join(project, 'web'));
  const hubHome = await makeHubHome();
  onTestFinished(() => reapAll(hubHome));
  const hub = await spawnHub(hubHome, { env: { HOME: person } });
  onTestFinished(() => hub.close());
  return { person, project, hub };
}

// Each attempt says how it went in the log; then it serves HTTP on 127.0.0.1 (or says it could not).
const probe = (person: string, mark: string) =>
  [
    'echo in-project > made.txt',
    `echo t > /tmp/${mark}`,
    `(echo evil >> ${person}/.bashrc) 2>/dev/null && echo BASHRC-WRITTEN || echo bashrc-refused`,
    `cat ${person}/.ssh/id_rsa 2>/dev/null | grep -q PRIVATE && echo KEY-READ || echo key-refused`,
    `exec node -e "require('http').createServer((q,s)=>s.end('served')).listen(+process.env.PORT,'127.0.0.1')"`,
  ].join('; ');

const logOf = (view: View) => readFileSync(view.logFile, 'utf8');

async function start(hub: HubSession, args: Record<string, unknown>): Promise<View> {
  const port = ok(await hub.call('get_free_port', {})).port as number;
  const started = ok(
    await hub.call('start_process', { ...args, env: { PORT: String(port) }, wait_for: { port, timeout_ms: 30_000 } }),
  );
  expect(started.ready, JSON.stringify(started)).toBe(true);
  const view = started.process as View;
  expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('served');
  // What `hub-mcp ps` shows in PORTS: found from the group's sockets, inside the sandbox too.
  expect(listeningPortsOf([view.pid]).get(view.pid)).toContain(port);
  return view;
}

async function killWhole(hub: HubSession, view: View): Promise<void> {
  const killed = ok(await hub.call('kill_process', { id: view.id }));
  expect((killed.process as View).status).toBe('killed');
  expect(groupMembers(view.pid)).toEqual([]);
}

test('sandbox "project": writes its project and /tmp, not ~/.bashrc nor ~/.ssh; serves on 127.0.0.1; killed whole; restart keeps it', async () => {
  const { person, project, hub } = await setup();
  const mark = `hub-sbx-${randomUUID()}`;
  onTestFinished(() => rm(join('/tmp', mark), { force: true }));
  const cwd = join(project, 'web');
  const view = await start(hub, { command: probe(person, mark), cwd, sandbox: 'project' });
  expect(view.sandbox).toEqual({ project, network: 'host' });
  expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('in-project\n');
  expect(existsSync(join('/tmp', mark))).toBe(true);
  expect(logOf(view)).toContain('bashrc-refused');
  expect(logOf(view)).toContain('key-refused');
  expect(logOf(view)).not.toMatch(/BASHRC-WRITTEN|KEY-READ/);
  expect(readFileSync(join(person, '.bashrc'), 'utf8')).toBe('# own\n');
  const listed = ok(await hub.call('list_processes', {})).processes as View[];
  expect(listed.find(one => one.id === view.id)?.sandbox).toEqual({ project, network: 'host' });
  expect(textOf(await hub.call('list_processes', {}))).toContain(`[sandbox: writes ${project}]`);
  await killWhole(hub, view);

  // restart_process runs it again in the same sandbox.
  const restarted = ok(await hub.call('restart_process', { id: view.id }));
  const again = { ...view, pid: restarted.pid as number };
  const relisted = ok(await hub.call('list_processes', {})).processes as View[];
  expect(relisted.find(one => one.id === view.id)).toMatchObject({
    status: 'running',
    sandbox: { project, network: 'host' },
  });
  await vi.waitFor(() => expect(logOf(view).match(/bashrc-refused/g)).toHaveLength(2), { timeout: 20_000 });
  expect(readFileSync(join(person, '.bashrc'), 'utf8')).toBe('# own\n');
  await killWhole(hub, again);
});

test('without sandbox a dev process runs as before: the same command writes ~/.bashrc and reads ~/.ssh', async () => {
  const { person, project, hub } = await setup();
  const mark = `hub-sbx-${randomUUID()}`;
  onTestFinished(() => rm(join('/tmp', mark), { force: true }));
  const view = await start(hub, { command: probe(person, mark), cwd: project });
  expect(view.sandbox).toBeUndefined();
  expect(logOf(view)).toContain('BASHRC-WRITTEN');
  expect(logOf(view)).toContain('KEY-READ');
  await killWhole(hub, view);
});

test('.hub.json makes the sandbox the default in its project and can only narrow what a call asks', async () => {
  const { person, project, hub } = await setup();
  await writeFile(
    join(project, '.hub.json'),
    JSON.stringify({ servers: [], processes: { sandbox: 'project-offline' } }),
  );
  const reach = `node -e "require('net').connect(+process.env.TARGET_PORT,'127.0.0.1').on('connect',()=>{console.log('NET-OK');process.exit(0)}).on('error',()=>console.log('net-refused'))"`;
  const port = ok(await hub.call('get_free_port', {})).port as number;
  const command = `${reach}; (echo evil >> ${person}/.bashrc) 2>/dev/null && echo BASHRC-WRITTEN || echo bashrc-refused; exec sleep 600`;
  // The call asks for the machine's network: the project's file narrows it to none.
  for (const sandbox of [undefined, 'project']) {
    const started = ok(
      await hub.call('start_process', {
        command,
        cwd: project,
        env: { TARGET_PORT: String(port) },
        ...(sandbox && { sandbox }),
        wait_for: { pattern: 'bashrc-', timeout_ms: 30_000 },
      }),
    );
    const view = started.process as View;
    expect(view.sandbox).toEqual({ project, network: 'none' });
    expect(logOf(view)).toContain('net-refused');
    expect(logOf(view)).toContain('bashrc-refused');
    await killWhole(hub, view);
  }
});

test('a tty process runs inside the sandbox too', async () => {
  const { person, project, hub } = await setup();
  const started = ok(
    await hub.call('start_process', {
      command: `[ -t 0 ] && [ -t 1 ] && echo IS-A-TTY; (echo evil >> ${person}/.bashrc) 2>/dev/null && echo BASHRC-WRITTEN || echo bashrc-refused; exec sleep 600`,
      cwd: project,
      tty: true,
      sandbox: 'project',
      wait_for: { pattern: 'bashrc-', timeout_ms: 30_000 },
    }),
  );
  const view = started.process as View;
  expect(logOf(view)).toContain('IS-A-TTY');
  expect(logOf(view)).toContain('bashrc-refused');
  await killWhole(hub, view);
});
