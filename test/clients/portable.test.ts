// Issue 10.17: a project-scope file is committed, so it names `hub-mcp` (found on PATH and this
// package) instead of this machine's absolute paths; a foreign `hub` (GitHub's CLI) or none
// keeps the absolute launch and says what to do.
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runConfig } from '../../src/cli/config-command.js';
import { makeMachine, NODE, readJson, type Machine } from './machine.js';

// A fake installed package: <root>/pkg/dist/server.js with its package.json, and a bin folder.
async function install(machine: Machine): Promise<{ serverJs: string; bin: string }> {
  const pkg = join(machine.root, 'pkg');
  await mkdir(join(pkg, 'dist'), { recursive: true });
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'hub-mcp', bin: { 'hub-mcp': 'dist/server.js' } }));
  const serverJs = join(pkg, 'dist', 'server.js');
  await writeFile(serverJs, '#!/usr/bin/env node\n', { mode: 0o755 });
  const bin = join(machine.root, 'bin');
  await mkdir(bin);
  return { serverJs, bin };
}

const configure = async (machine: Machine, serverJs: string, bin: string, args: string[]) => {
  const deps = { ...machine.deps({ env: { PATH: `${bin}:/usr/bin:/bin` } }), serverJs };
  expect(await runConfig(args, deps)).toBe(0);
};

test('project scope writes "command": "hub-mcp" when the hub on PATH is this package; user scope keeps absolute paths', async () => {
  const machine = await makeMachine();
  const { serverJs, bin } = await install(machine);
  await symlink(serverJs, join(bin, 'hub-mcp'));
  await configure(machine, serverJs, bin, ['claude-code', '--scope', 'project', '--write']);
  expect(((await readJson(join(machine.project, '.mcp.json'))).mcpServers as Record<string, unknown>).hub).toEqual({
    type: 'stdio',
    command: 'hub-mcp',
    args: [],
    env: {},
  });
  expect(machine.output()).not.toContain('warning');
  await configure(machine, serverJs, bin, ['cursor', '--scope', 'user', '--write']);
  expect(
    ((await readJson(join(machine.home, '.cursor', 'mcp.json'))).mcpServers as Record<string, unknown>).hub,
  ).toEqual({
    command: NODE,
    args: [serverJs],
  });
});

test('another install of this package on PATH counts as this hub', async () => {
  const machine = await makeMachine();
  const { serverJs, bin } = await install(machine);
  const other = join(machine.root, 'global', 'lib', 'node_modules', 'hub-mcp');
  await mkdir(join(other, 'dist'), { recursive: true });
  await writeFile(
    join(other, 'package.json'),
    JSON.stringify({ name: 'hub-mcp', bin: { 'hub-mcp': 'dist/server.js' } }),
  );
  await writeFile(join(other, 'dist', 'server.js'), '#!/usr/bin/env node\n', { mode: 0o755 });
  await symlink(join(other, 'dist', 'server.js'), join(bin, 'hub-mcp'));
  await configure(machine, serverJs, bin, ['cursor', '--scope', 'project', '--write']);
  expect(
    ((await readJson(join(machine.project, '.cursor', 'mcp.json'))).mcpServers as Record<string, unknown>).hub,
  ).toEqual({
    command: 'hub-mcp',
    args: [],
  });
});

test("a foreign hub on PATH (GitHub's CLI) keeps the absolute launch and warns what to do", async () => {
  const machine = await makeMachine();
  const { serverJs, bin } = await install(machine);
  const foreign = join(bin, 'hub-mcp');
  await writeFile(foreign, '#!/bin/sh\necho "git version 2.40.0"\necho "hub version 2.14.2"\n');
  await chmod(foreign, 0o755);
  await configure(machine, serverJs, bin, ['vscode', '--write']);
  expect(
    ((await readJson(join(machine.project, '.vscode', 'mcp.json'))).servers as Record<string, unknown>).hub,
  ).toEqual({
    type: 'stdio',
    command: NODE,
    args: [serverJs],
  });
  expect(machine.output()).toContain(
    `warning: This project file now holds absolute paths of this machine: the "hub-mcp" on PATH (${foreign}) is another program`,
  );
});

test('no hub on PATH keeps the absolute launch and says how to get the portable one', async () => {
  const machine = await makeMachine();
  const { serverJs, bin } = await install(machine);
  await configure(machine, serverJs, bin, ['gemini', '--scope', 'project', '--json']);
  const report = JSON.parse(machine.output()) as { entry: { command: string }; warnings: string[] };
  expect(report.entry.command).toBe(NODE);
  expect(report.warnings[0]).toMatch(/"hub-mcp" is not on PATH/);
});

// Issue 30.1: `npx -y hub-mcp config <client> --write` runs from npx's cache, which npm prunes:
// the entry names the package (npx fetches it again), never the cache path.
test('run from npx, every scope writes "npx -y hub-mcp", not the path in the npx cache', async () => {
  const machine = await makeMachine();
  const cached = join(machine.root, '.npm', '_npx', '3f2a9c1e', 'node_modules', 'hub-mcp');
  await mkdir(join(cached, 'dist'), { recursive: true });
  await writeFile(
    join(cached, 'package.json'),
    JSON.stringify({ name: 'hub-mcp', bin: { 'hub-mcp': 'dist/server.js' } }),
  );
  const serverJs = join(cached, 'dist', 'server.js');
  await writeFile(serverJs, '#!/usr/bin/env node\n', { mode: 0o755 });
  const bin = join(machine.root, 'bin');
  await mkdir(bin);
  await configure(machine, serverJs, bin, ['claude-desktop', '--write']);
  await configure(machine, serverJs, bin, ['claude-code', '--scope', 'project', '--write']);
  const desktop = await readJson(join(machine.home, '.config', 'Claude', 'claude_desktop_config.json'));
  expect((desktop.mcpServers as Record<string, unknown>).hub).toEqual({ command: 'npx', args: ['-y', 'hub-mcp'] });
  const project = await readJson(join(machine.project, '.mcp.json'));
  expect((project.mcpServers as Record<string, unknown>).hub).toEqual({
    type: 'stdio',
    command: 'npx',
    args: ['-y', 'hub-mcp'],
    env: {},
  });
  expect(machine.output()).not.toContain('_npx');
  expect(machine.output()).not.toContain('warning');
});
