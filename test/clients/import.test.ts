// hub import <client>: servers from fixture client configs registered in a temp HUB_HOME in
// command mode; env values never printed; remote and disabled entries skipped; --remove
// drops them from the client file after a backup, and never without consent.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, test, vi } from 'vitest';
import { runImport } from '../../src/cli/import-command.js';
import { loadConfig } from '../../src/core/config/config.js';
import { openStore } from '../../src/store/store.js';
import { fixture } from '../helpers/hub.js';
import { isAlive } from '../helpers/processes.js';
import { makeMachine, readJson, SERVER_JS, type Machine } from './machine.js';

type Servers = Record<
  string,
  {
    name: string;
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd?: string;
    mode: string;
    order: number;
    autoStart: boolean;
    source: string;
    tools?: unknown[];
    toolsUpdatedAt?: string;
  }
>;
const hubServers = async (machine: Machine): Promise<Servers> =>
  (await readJson(join(machine.hubHome, 'db.json'))).servers as Servers;
const cursorFile = (machine: Machine) => join(machine.home, '.cursor', 'mcp.json');
// As if hub had started these servers before (what a successful start records): --remove may drop them.
async function markStarted(machine: Machine, names: readonly string[]): Promise<void> {
  const store = openStore(loadConfig({ HUB_HOME: machine.hubHome }).paths);
  await store.update(data => {
    for (const name of names) data.servers[name]!.toolsUpdatedAt = new Date().toISOString();
  });
}
const backupsIn = async (folder: string) => (await readdir(folder)).filter(name => name.includes('.bak-'));

describe('hub-mcp import', () => {
  test('registers stdio servers in command mode with command, args, env and cwd kept, names normalised; URL servers as remote', async () => {
    const machine = await makeMachine();
    await machine.place('cursor-mcp.json', cursorFile(machine));
    expect(await runImport(['cursor', '--no-start'], machine.deps())).toBe(0);
    const servers = await hubServers(machine);
    expect(Object.keys(servers).sort()).toEqual(['git', 'github', 'linear', 'my-notes']);
    expect(servers.linear).toMatchObject({
      kind: 'remote',
      command: 'https://mcp.linear.app/sse',
      remote: { url: 'https://mcp.linear.app/sse' },
    });
    expect(servers.github).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_SECRET_VALUE_1234' },
      mode: 'command',
      autoStart: false,
      source: 'import:cursor',
    });
    expect(servers.github?.tools).toBeUndefined();
    expect(servers['my-notes']).toMatchObject({ command: 'node', cwd: '/opt/notes' });
    expect(servers.git!.args).toEqual(['mcp-server-git', '--repository', '/src/app']);
    expect(
      Object.values(servers)
        .map(server => server.order)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
  });

  test('never prints env values (text or --json), masks secret-looking args, and lists env keys', async () => {
    for (const json of [false, true]) {
      const machine = await makeMachine();
      await machine.place('cursor-mcp.json', cursorFile(machine));
      await runImport(json ? ['cursor', '--no-start', '--json'] : ['cursor', '--no-start'], machine.deps());
      const output = machine.output();
      expect(output).not.toContain('ghp_SECRET_VALUE_1234');
      expect(output).not.toContain('sk-SECRET-ARG');
      expect(output).toContain('GITHUB_PERSONAL_ACCESS_TOKEN');
    }
  });

  test('skips disabled and hub entries with a reason, and keeps them in the client', async () => {
    const machine = await makeMachine();
    await machine.place('cursor-mcp.json', cursorFile(machine));
    const data = await readJson(cursorFile(machine));
    (data.mcpServers as Record<string, unknown>).hub = { command: '/usr/bin/node', args: [SERVER_JS] };
    await import('node:fs/promises').then(fs => fs.writeFile(cursorFile(machine), JSON.stringify(data, null, 2)));
    await runImport(['cursor', '--no-start', '--json'], machine.deps());
    const result = JSON.parse(machine.output()) as { skipped: { key: string; reason: string }[] };
    expect(result.skipped.map(item => item.key).sort()).toEqual(['hub', 'old-thing']);
    expect(result.skipped.find(item => item.key === 'old-thing')!.reason).toMatch(/disabled/);
  });

  test('a name hub already has is skipped with a note, and the store record is not touched', async () => {
    const machine = await makeMachine();
    await machine.place('cursor-mcp.json', cursorFile(machine));
    await runImport(['cursor', '--no-start'], machine.deps());
    const first = await hubServers(machine);
    await machine.place('windsurf-mcp_config.json', join(machine.home, '.codeium', 'windsurf', 'mcp_config.json'), {
      'brave-search': 'github',
    });
    await runImport(['windsurf', '--no-start'], machine.deps());
    // Its URL server (zapier) is new; github stays as it was.
    const after = await hubServers(machine);
    expect(after.github).toEqual(first.github);
    expect(Object.keys(after).sort()).toEqual([...Object.keys(first), 'zapier'].sort());
    expect(machine.output()).toMatch(/= github +already in hub with a different command/);
    await runImport(['cursor', '--no-start'], machine.deps());
    expect(machine.output()).toMatch(/= github +already in hub \(same command\)/);
  });

  // Two servers that start (the echo fixture), one remote one that stays, and another key.
  async function placeEchoConfig(machine: Machine): Promise<string> {
    const file = cursorFile(machine);
    const echo = { command: process.execPath, args: [fixture('echo-server.mjs')] };
    const config = {
      mcpServers: {
        first: echo,
        second: { ...echo, env: { WHICH: 'second' } },
        // Nothing listens there: it does not connect, so it stays in the client.
        linear: { url: 'http://127.0.0.1:9/sse' },
      },
      someOtherKey: { keep: true },
    };
    await mkdir(join(machine.home, '.cursor'), { recursive: true });
    await writeFile(file, JSON.stringify(config, null, 2));
    return file;
  }

  test('--remove --yes drops the entries that started under hub from the client file after a backup; others stay', async () => {
    const machine = await makeMachine();
    const file = await placeEchoConfig(machine);
    const original = await readFile(file, 'utf8');
    expect(await runImport(['cursor', '--remove', '--yes'], machine.deps())).toBe(0);
    const data = await readJson(file);
    expect(Object.keys(data.mcpServers as object)).toEqual(['linear']);
    expect(data.someOtherKey).toEqual({ keep: true });
    const backups = await backupsIn(join(machine.home, '.cursor'));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(machine.home, '.cursor', backups[0]!), 'utf8')).toBe(original);
    expect(Object.keys(await hubServers(machine)).sort()).toEqual(['first', 'linear', 'second']);
  });

  // Issue 10.12: the README promises that only servers that started under hub leave the client.
  test('--no-start --remove removes nothing; a later --remove starts them once, then removes them', async () => {
    const machine = await makeMachine();
    const file = await placeEchoConfig(machine);
    const original = await readFile(file, 'utf8');
    expect(await runImport(['cursor', '--no-start', '--remove', '--yes'], machine.deps())).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await backupsIn(join(machine.home, '.cursor'))).toEqual([]);
    expect(machine.output()).toMatch(
      /Kept first, second, linear in Cursor's config: they have not started under hub yet/,
    );

    expect(await runImport(['cursor', '--remove', '--yes'], machine.deps())).toBe(0);
    expect(Object.keys((await readJson(file)).mcpServers as object)).toEqual(['linear']);
    const servers = await hubServers(machine);
    expect(servers.first!.toolsUpdatedAt).toBeDefined();
  });

  test('--remove without a terminal and without --yes is refused before anything changes', async () => {
    const machine = await makeMachine();
    const file = await machine.place('cursor-mcp.json', cursorFile(machine));
    const original = await readFile(file, 'utf8');
    await expect(runImport(['cursor', '--no-start', '--remove'], machine.deps())).rejects.toThrow(/--yes/);
    expect(await readFile(file, 'utf8')).toBe(original);
    await expect(readFile(join(machine.hubHome, 'db.json'))).rejects.toThrow(/ENOENT/);
  });

  test('--remove on a terminal asks first: "no" leaves the client file alone, "yes" removes', async () => {
    for (const answer of [false, true]) {
      const machine = await makeMachine();
      const file = await placeEchoConfig(machine);
      const original = await readFile(file, 'utf8');
      const questions: string[] = [];
      await runImport(
        ['cursor', '--remove'],
        machine.deps({ confirm: async question => (questions.push(question), answer) }),
      );
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('first');
      if (answer) expect(Object.keys((await readJson(file)).mcpServers as object)).toEqual(['linear']);
      else expect(await readFile(file, 'utf8')).toBe(original);
    }
  });

  test('codex: TOML servers with env tables are imported, the url server skipped, --remove keeps other tables', async () => {
    const machine = await makeMachine();
    const file = await machine.place('codex-config.toml', join(machine.home, '.codex', 'config.toml'));
    await runImport(['codex', '--no-start'], machine.deps());
    await markStarted(machine, ['context7']);
    await runImport(['codex', '--no-start', '--remove', '--yes'], machine.deps());
    expect((await hubServers(machine)).context7).toMatchObject({
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp'],
      env: { CONTEXT7_API_KEY: 'ctx7-SECRET' },
    });
    expect(machine.output()).not.toContain('ctx7-SECRET');
    const after = parseToml(await readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(after.mcp_servers!)).toEqual(['figma']);
    expect(after.profiles).toEqual({ fast: { model: 'gpt-5-mini' } });
    expect(after.model).toBe('gpt-5-codex');
    // Edited in place: the comment and the other tables' lines are as they were.
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# Codex settings');
    expect(text).toContain('[profiles.fast]\nmodel = "gpt-5-mini"\n\n[mcp_servers.figma]\n');
  });

  test("claude-code: reads .mcp.json, the user servers and this project's local servers; --remove edits ~/.claude.json once", async () => {
    const machine = await makeMachine();
    await machine.place('claude-project.mcp.json', join(machine.project, '.mcp.json'));
    const user = await machine.place('claude-user.json', join(machine.home, '.claude.json'), {
      __PROJECT__: machine.project,
    });
    await runImport(['claude-code', '--no-start'], machine.deps());
    await markStarted(machine, ['memory', 'playwright', 'postgres']);
    await runImport(['claude-code', '--no-start', '--remove', '--yes'], machine.deps());
    expect(Object.keys(await hubServers(machine)).sort()).toEqual(['memory', 'playwright', 'postgres', 'sentry']);
    expect(machine.output()).not.toContain('hunter2');
    expect(machine.output()).not.toContain('secret-memory');
    const data = (await readJson(user)) as {
      mcpServers: object;
      numStartups: number;
      projects: Record<string, { mcpServers: object; allowedTools?: unknown }>;
    };
    expect(Object.keys(data.mcpServers)).toEqual(['sentry']);
    expect(data.projects[machine.project]).toEqual({ allowedTools: [], mcpServers: {} });
    expect(data.projects['/some/other/project']!.mcpServers).toEqual({ other: { command: 'other-server' } });
    expect(data.numStartups).toBe(42);
    expect(await backupsIn(machine.home)).toHaveLength(1);
  });

  test('vscode and gemini: "servers" and "mcpServers" keys, remote (type http / httpUrl) imported', async () => {
    const machine = await makeMachine();
    await machine.place('vscode-mcp.json', join(machine.project, '.vscode', 'mcp.json'));
    await machine.place('gemini-settings.json', join(machine.home, '.gemini', 'settings.json'));
    await runImport(['vscode', '--no-start'], machine.deps());
    await runImport(['gemini', '--no-start'], machine.deps());
    const servers = await hubServers(machine);
    expect(Object.keys(servers).sort()).toEqual(['git', 'github', 'github-remote', 'perplexity']);
    expect(servers['github-remote']).toMatchObject({
      remote: { url: 'https://api.githubcopilot.com/mcp/', transport: 'streamable-http' },
    });
    // Gemini's httpUrl server, with its header kept as a secret (never printed).
    expect(servers.github).toMatchObject({
      remote: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer SECRET' } },
    });
    expect(machine.output()).not.toContain('Bearer SECRET');
    expect(servers.perplexity!.env).toEqual({ PERPLEXITY_API_KEY: '${input:perplexity-key}' });
    expect(machine.output()).toMatch(/perplexity: env PERPLEXITY_API_KEY holds a VS Code variable/);
  });

  test('a file it cannot parse is reported and the other files are still read', async () => {
    const machine = await makeMachine();
    // Comments and trailing commas are JSONC, which hub reads (jsonc.test.ts): this one is cut short.
    await mkdir(join(machine.project, '.gemini'), { recursive: true });
    await writeFile(
      join(machine.project, '.gemini', 'settings.json'),
      '{\n  "mcpServers": {\n    "a": { "command": "a" },\n',
    );
    await machine.place('gemini-settings.json', join(machine.home, '.gemini', 'settings.json'));
    expect(await runImport(['gemini', '--no-start'], machine.deps())).toBe(0);
    expect(machine.output()).toContain(`${join(machine.project, '.gemini', 'settings.json')} is not valid JSON`);
    expect(Object.keys(await hubServers(machine))).toEqual(['git', 'github']);
  });

  test('starts each imported server once so its tools are cached; one that does not start stays in the client', async () => {
    const machine = await makeMachine();
    const file = join(machine.home, '.cursor', 'mcp.json');
    const config = {
      mcpServers: {
        echo: {
          command: process.execPath,
          args: [fixture('echo-server.mjs')],
          env: { ECHO_TOKEN: 'tok-SECRET', ECHO_SPAWN_LOG: join(machine.root, 'spawns') },
        },
        broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
    };
    await mkdir(join(machine.home, '.cursor'), { recursive: true });
    await writeFile(file, JSON.stringify(config, null, 2));
    // The probe's child is watched by its own pid below: unsandboxed, by the person's setting
    // (a sandbox's pid namespace renumbers it).
    await writeFile(join(machine.hubHome, 'config.json'), JSON.stringify({ sandbox: { enabled: false } }));
    expect(await runImport(['cursor', '--remove', '--yes'], machine.deps())).toBe(0);
    const servers = await hubServers(machine);
    // Cached in tools/echo.json (db.json only says when); nothing for the one that did not start.
    const cache = await readJson(join(machine.hubHome, 'tools', 'echo.json'));
    expect((cache.tools as { name: string }[]).map(tool => tool.name)).toContain('echo');
    expect(servers.echo!.tools).toBeUndefined();
    expect(servers.echo!.toolsUpdatedAt).toBeDefined();
    expect(servers.broken!.tools).toBeUndefined();
    expect(servers.broken!.toolsUpdatedAt).toBeUndefined();
    const output = machine.output();
    expect(output).toMatch(/\+ echo .* — \d+ tools/);
    expect(output).toMatch(/\+ broken .* — did not start/);
    expect(output).toContain('Kept broken');
    expect(output).not.toContain('tok-SECRET');
    expect(Object.keys((await readJson(file)).mcpServers as object)).toEqual(['broken']);
    // The probe closed what it started.
    const pid = Number((await readFile(join(machine.root, 'spawns'), 'utf8')).trim());
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  });

  test('no config at all is not an error', async () => {
    const machine = await makeMachine();
    expect(await runImport(['windsurf', '--no-start'], machine.deps())).toBe(0);
    expect(machine.output()).toMatch(/No Windsurf config found/);
  });
});
