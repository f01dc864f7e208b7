// Issue 10.2 (gemini part): Gemini CLI drops variables whose names contain CERT, KEY, TOKEN...
// from a server's environment, so `hub config gemini` carries the CA file under a name it keeps
// and that npm (and hub, which reads npm's settings) understands.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { runConfig } from '../../src/cli/config-command.js';
import { makeMachine, NODE, readJson, SERVER_JS } from './machine.js';

// The name patterns of Gemini CLI's environmentSanitization.ts (packages/core/src/services).
const GEMINI_STRIPS = [
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  /KEY/i,
  /AUTH/i,
  /CREDENTIAL/i,
  /CREDS/i,
  /PRIVATE/i,
  /CERT/i,
];

test('hub-mcp config gemini carries NODE_EXTRA_CA_CERTS as npm_config_cafile, a name Gemini keeps and npm reads', async () => {
  const machine = await makeMachine();
  const caFile = join(machine.root, 'corp-ca.pem');
  expect(await runConfig(['gemini', '--write'], machine.deps({ env: { NODE_EXTRA_CA_CERTS: caFile } }))).toBe(0);
  const hub = (
    (await readJson(join(machine.home, '.gemini', 'settings.json'))).mcpServers as Record<
      string,
      { env: Record<string, string> }
    >
  ).hub!;
  expect(hub).toEqual({ command: NODE, args: [SERVER_JS], env: { npm_config_cafile: caFile } });
  for (const name of Object.keys(hub.env)) expect(GEMINI_STRIPS.some(pattern => pattern.test(name))).toBe(false);

  // npm itself takes it as its cafile setting (what hub's registry requests and installs use).
  const { stdout } = await promisify(execFile)('npm', ['config', 'get', 'cafile'], {
    env: { PATH: process.env.PATH, HOME: machine.home, npm_config_cafile: hub.env.npm_config_cafile },
    cwd: machine.home,
  });
  expect(stdout.trim()).toBe(caFile);
});

test("a person's own env in the gemini entry wins; without NODE_EXTRA_CA_CERTS no env is added", async () => {
  const machine = await makeMachine();
  const file = join(machine.home, '.gemini', 'settings.json');
  expect(await runConfig(['gemini', '--write'], machine.deps())).toBe(0);
  expect(((await readJson(file)).mcpServers as Record<string, unknown>).hub).toEqual({
    command: NODE,
    args: [SERVER_JS],
  });
  const text = (await readFile(file, 'utf8')).replace(
    '"args"',
    '"env": { "npm_config_cafile": "/mine.pem", "HUB_TOOL_NAMES": "dotted" },\n      "args"',
  );
  await writeFile(file, text);
  expect(await runConfig(['gemini', '--write'], machine.deps({ env: { NODE_EXTRA_CA_CERTS: '/other.pem' } }))).toBe(0);
  expect(((await readJson(file)).mcpServers as Record<string, { env: unknown }>).hub!.env).toEqual({
    npm_config_cafile: '/mine.pem',
    HUB_TOOL_NAMES: 'dotted',
  });
});
