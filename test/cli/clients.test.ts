// The built bin: `hub config` and `hub import` read $HOME and the working directory, so a
// temp HOME and cwd keep the real ones out of reach.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { SERVER_JS } from '../helpers/hub.js';
import { makeMachine, type Machine } from '../clients/machine.js';

const run = (machine: Machine, args: string[]) =>
  promisify(execFile)(process.execPath, [SERVER_JS, ...args], {
    cwd: machine.project,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: machine.home, HUB_HOME: machine.hubHome },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

test('hub-mcp config cursor --write writes ~/.cursor/mcp.json under $HOME, pointing at this node and dist/server.js', async () => {
  const machine = await makeMachine();
  const result = await run(machine, ['config', 'cursor', '--write']);
  expect(result.code).toBe(0);
  const data = JSON.parse(await readFile(join(machine.home, '.cursor', 'mcp.json'), 'utf8')) as {
    mcpServers: Record<string, unknown>;
  };
  expect(data.mcpServers.hub).toEqual({ command: process.execPath, args: [SERVER_JS] });
});

test('hub-mcp config vscode --write uses the working directory as the project', async () => {
  const machine = await makeMachine();
  expect((await run(machine, ['config', 'vscode', '--write'])).code).toBe(0);
  expect(JSON.parse(await readFile(join(machine.project, '.vscode', 'mcp.json'), 'utf8'))).toMatchObject({
    servers: { hub: { type: 'stdio' } },
  });
});

test('hub-mcp import --remove with no terminal and no --yes exits non-zero and says why', async () => {
  const machine = await makeMachine();
  await machine.place('cursor-mcp.json', join(machine.home, '.cursor', 'mcp.json'));
  const result = await run(machine, ['import', 'cursor', '--no-start', '--remove']);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('--yes');
  const ok = await run(machine, ['import', 'cursor', '--no-start']);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toMatch(/\+ github/);
  expect(ok.stdout).not.toContain('ghp_SECRET_VALUE_1234');
});

test('the built bin edits a Cursor file with comments and trailing commas in place', async () => {
  const machine = await makeMachine();
  const file = join(machine.home, '.cursor', 'mcp.json');
  const text = '{\n  // mine\n  "mcpServers": {\n    "a": { "command": "a" }, // keep\n  },\n}\n';
  await mkdir(join(machine.home, '.cursor'));
  await writeFile(file, text);
  expect((await run(machine, ['config', 'cursor', '--write'])).code).toBe(0);
  const entry = JSON.stringify({ command: process.execPath, args: [SERVER_JS] }, null, 2).replace(/\n/g, '\n    ');
  expect(await readFile(file, 'utf8')).toBe(text.replace('// keep\n', `// keep\n    "hub": ${entry},\n`));
});
