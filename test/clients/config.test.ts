// hub config <client>: each client's file merged from fixture configs in a temp home and
// project folder (never the real home): other entries and keys kept, a backup of the old
// file, unparsable files refused untouched, --dry-run writes nothing.
import { chmod, lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { runConfig } from '../../src/cli/config-command.js';
import { makeMachine, NODE, readJson, SERVER_JS } from './machine.js';

const HUB_ENTRY = { command: NODE, args: [SERVER_JS] };

async function backupsOf(file: string): Promise<string[]> {
  const folder = join(file, '..');
  const base = file.slice(folder.length + 1);
  return (await readdir(folder)).filter(name => name.startsWith(`${base}.bak-`)).map(name => join(folder, name));
}

describe('hub-mcp config --write merges hub into an existing client file', () => {
  const cases = [
    {
      client: 'cursor',
      fixture: 'cursor-mcp.json',
      path: (home: string) => join(home, '.cursor', 'mcp.json'),
      key: 'mcpServers',
      entry: HUB_ENTRY,
      kept: ['github', 'linear'],
      otherKey: 'someOtherKey',
    },
    {
      client: 'claude-code',
      fixture: 'claude-user.json',
      path: (home: string) => join(home, '.claude.json'),
      key: 'mcpServers',
      entry: { type: 'stdio', ...HUB_ENTRY, env: {} },
      kept: ['memory', 'sentry'],
      otherKey: 'projects',
    },
    {
      client: 'claude-desktop',
      fixture: 'claude-desktop.json',
      path: (home: string) => join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      key: 'mcpServers',
      entry: HUB_ENTRY,
      kept: ['filesystem'],
      otherKey: 'globalShortcut',
    },
    {
      client: 'windsurf',
      fixture: 'windsurf-mcp_config.json',
      path: (home: string) => join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      key: 'mcpServers',
      entry: HUB_ENTRY,
      kept: ['brave-search', 'zapier'],
      otherKey: undefined,
    },
    {
      client: 'gemini',
      fixture: 'gemini-settings.json',
      path: (home: string) => join(home, '.gemini', 'settings.json'),
      key: 'mcpServers',
      entry: HUB_ENTRY,
      kept: ['git', 'github'],
      otherKey: 'theme',
    },
  ] as const;

  for (const item of cases) {
    test(`${item.client}: hub added, other servers and keys kept, old file backed up`, async () => {
      const machine = await makeMachine();
      const file = await machine.place(item.fixture, item.path(machine.home));
      const original = await readFile(file, 'utf8');
      expect(await runConfig([item.client, '--write'], machine.deps())).toBe(0);

      const data = await readJson(file);
      const servers = data[item.key] as Record<string, unknown>;
      expect(servers.hub).toEqual(item.entry);
      const before = JSON.parse(original) as Record<string, Record<string, unknown>>;
      for (const name of item.kept) expect(servers[name]).toEqual(before[item.key]![name]);
      if (item.otherKey) expect(data[item.otherKey]).toEqual(before[item.otherKey]);
      const backups = await backupsOf(file);
      expect(backups).toHaveLength(1);
      expect(await readFile(backups[0]!, 'utf8')).toBe(original);
      expect(machine.output()).toContain(backups[0]!);
    });
  }

  test('vscode: .vscode/mcp.json gets a type "stdio" entry under "servers", inputs and indentation kept', async () => {
    const machine = await makeMachine();
    const file = await machine.place('vscode-mcp.json', join(machine.project, '.vscode', 'mcp.json'));
    expect(await runConfig(['vscode', '--write'], machine.deps())).toBe(0);
    const text = await readFile(file, 'utf8');
    const data = JSON.parse(text) as { inputs: unknown[]; servers: Record<string, unknown> };
    expect(data.servers.hub).toEqual({ type: 'stdio', ...HUB_ENTRY });
    expect(Object.keys(data.servers)).toEqual(['perplexity', 'github-remote', 'hub']);
    expect(data.inputs).toHaveLength(1);
    expect(text).toMatch(/^ {4}"inputs"/m);
  });

  test('claude-code --scope project writes .mcp.json in the project folder', async () => {
    const machine = await makeMachine();
    const file = await machine.place('claude-project.mcp.json', join(machine.project, '.mcp.json'));
    expect(await runConfig(['claude-code', '--scope', 'project', '--write'], machine.deps())).toBe(0);
    const servers = (await readJson(file)).mcpServers as Record<string, unknown>;
    expect(Object.keys(servers)).toEqual(['playwright', 'hub']);
  });

  test('codex: [mcp_servers.hub] appended in place; every other line, comments included, is kept', async () => {
    const machine = await makeMachine();
    const file = await machine.place('codex-config.toml', join(machine.home, '.codex', 'config.toml'));
    const before = parseToml(await readFile(file, 'utf8'));
    expect(await runConfig(['codex', '--write'], machine.deps())).toBe(0);
    const text = await readFile(file, 'utf8');
    const after = parseToml(text) as { mcp_servers: Record<string, unknown> };
    expect(after.mcp_servers.hub).toEqual(HUB_ENTRY);
    const { hub: _hub, ...rest } = after.mcp_servers;
    expect({ ...after, mcp_servers: rest }).toEqual(before);
    const original = await readFile((await backupsOf(file))[0]!, 'utf8');
    expect(text.startsWith(`${original.trimEnd()}\n\n[mcp_servers.hub]\n`)).toBe(true);
    expect(text).toContain('# Codex settings');
  });

  test('codex: an existing hub table is updated where it stands, its env subtable kept', async () => {
    const machine = await makeMachine();
    const file = join(machine.home, '.codex', 'config.toml');
    await mkdir(dirname(file), { recursive: true });
    const original = [
      '# mine',
      'model = "o3"',
      '',
      '[mcp_servers.hub]',
      'command = "/old/node"',
      'args = ["/old/server.js"]',
      '',
      '[mcp_servers.hub.env]',
      'HUB_TOOL_NAMES = "underscore"',
      '',
      '# the next one is mine too',
      '[mcp_servers.other]',
      'command = "other"',
      '',
    ].join('\n');
    await writeFile(file, original);
    expect(await runConfig(['codex', '--write'], machine.deps())).toBe(0);
    const text = await readFile(file, 'utf8');
    expect((parseToml(text) as { mcp_servers: Record<string, unknown> }).mcp_servers).toEqual({
      hub: { ...HUB_ENTRY, env: { HUB_TOOL_NAMES: 'underscore' } },
      other: { command: 'other' },
    });
    expect(text.startsWith('# mine\nmodel = "o3"\n\n[mcp_servers.hub]\n')).toBe(true);
    expect(text).toContain('\n\n# the next one is mine too\n[mcp_servers.other]\ncommand = "other"\n');
    expect(text).not.toContain('/old/');
  });

  test('CODEX_HOME moves the codex file', async () => {
    const machine = await makeMachine();
    const codexHome = join(machine.root, 'codex-home');
    expect(await runConfig(['codex', '--write'], machine.deps({ env: { CODEX_HOME: codexHome } }))).toBe(0);
    expect(parseToml(await readFile(join(codexHome, 'config.toml'), 'utf8'))).toEqual({
      mcp_servers: { hub: HUB_ENTRY },
    });
  });
});

describe('hub-mcp config file handling', () => {
  test('creates a missing file and its folder, private to the user', async () => {
    const machine = await makeMachine();
    expect(await runConfig(['gemini', '--scope', 'project', '--write'], machine.deps())).toBe(0);
    const file = join(machine.project, '.gemini', 'settings.json');
    expect(await readJson(file)).toEqual({ mcpServers: { hub: HUB_ENTRY } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await backupsOf(file)).toEqual([]);
  });

  test('an existing file keeps its mode', async () => {
    const machine = await makeMachine();
    const file = await machine.place('gemini-settings.json', join(machine.home, '.gemini', 'settings.json'));
    await chmod(file, 0o644);
    expect(await runConfig(['gemini', '--write'], machine.deps())).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o644);
  });

  test('a file it cannot parse is refused, named, and left untouched with no backup', async () => {
    for (const [client, name, path] of [
      ['vscode', 'broken.json', (m: { project: string }) => join(m.project, '.vscode', 'mcp.json')],
      ['codex', 'broken.toml', (m: { home: string }) => join(m.home, '.codex', 'config.toml')],
    ] as const) {
      const machine = await makeMachine();
      const file = await machine.place(name, path(machine as never));
      // broken.json holds comments and trailing commas, which hub reads as JSONC (jsonc.test.ts):
      // cut short, it is broken for any reader.
      if (name === 'broken.json') await writeFile(file, (await readFile(file, 'utf8')).slice(0, -4));
      const original = await readFile(file, 'utf8');
      await expect(runConfig([client, '--write'], machine.deps())).rejects.toThrow(file);
      expect(await readFile(file, 'utf8')).toBe(original);
      expect(await backupsOf(file)).toEqual([]);
    }
  });

  test('a servers key that is not an object is refused', async () => {
    const machine = await makeMachine();
    const file = join(machine.home, '.cursor', 'mcp.json');
    await machine.place('gemini-settings.json', file);
    await writeFile(file, '{ "mcpServers": [] }\n');
    await expect(runConfig(['cursor', '--write'], machine.deps())).rejects.toThrow(/"mcpServers" .* is not an object/);
    expect(await readFile(file, 'utf8')).toBe('{ "mcpServers": [] }\n');
  });

  test('--dry-run prints a unified diff and writes nothing', async () => {
    const machine = await makeMachine();
    const file = await machine.place('cursor-mcp.json', join(machine.home, '.cursor', 'mcp.json'));
    const original = await readFile(file, 'utf8');
    expect(await runConfig(['cursor', '--write', '--dry-run'], machine.deps())).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect(await backupsOf(file)).toEqual([]);
    const output = machine.output();
    expect(output).toContain(`--- ${file} (now)`);
    expect(output).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
    expect(output).toMatch(/^\+ {4}"hub": \{$/m);
    expect(output).toContain('nothing was written');
  });

  test('--dry-run for a file that does not exist diffs against /dev/null and creates nothing', async () => {
    const machine = await makeMachine();
    expect(await runConfig(['windsurf', '--dry-run'], machine.deps())).toBe(0);
    expect(machine.output()).toContain('--- /dev/null');
    await expect(stat(join(machine.home, '.codeium'))).rejects.toThrow(/ENOENT/);
  });

  // Issue 10.4: the README tells people to set HUB_TOOL_NAMES in the entry's env and re-run.
  for (const item of [
    { client: 'claude-code', file: (home: string) => join(home, '.claude.json'), format: 'json' },
    { client: 'gemini', file: (home: string) => join(home, '.gemini', 'settings.json'), format: 'json' },
    { client: 'codex', file: (home: string) => join(home, '.codex', 'config.toml'), format: 'toml' },
  ] as const) {
    test(`${item.client}: a re-run keeps the env and other fields a person added to the hub entry`, async () => {
      const machine = await makeMachine();
      const file = item.file(machine.home);
      await mkdir(dirname(file), { recursive: true });
      const mine =
        item.format === 'toml'
          ? '[mcp_servers.hub]\ncommand = "/old/node"\nargs = ["/old/server.js"]\nstartup_timeout_sec = 30\n\n[mcp_servers.hub.env]\nHUB_TOOL_NAMES = "dotted"\n'
          : `${JSON.stringify({ mcpServers: { hub: { command: '/old/node', args: ['/old/server.js'], env: { HUB_TOOL_NAMES: 'dotted' }, timeout: 30000 } } }, null, 2)}\n`;
      await writeFile(file, mine);
      expect(await runConfig([item.client, '--write'], machine.deps())).toBe(0);
      const text = await readFile(file, 'utf8');
      const hub = (
        (item.format === 'toml' ? parseToml(text) : JSON.parse(text)) as Record<
          string,
          Record<string, Record<string, unknown>>
        >
      )[item.format === 'toml' ? 'mcp_servers' : 'mcpServers']!.hub!;
      expect(hub.command).toBe(NODE);
      expect(hub.args).toEqual([SERVER_JS]);
      expect(hub.env).toEqual({ HUB_TOOL_NAMES: 'dotted' });
      expect(hub[item.format === 'toml' ? 'startup_timeout_sec' : 'timeout']).toBe(item.format === 'toml' ? 30 : 30000);
      expect(await backupsOf(file)).toHaveLength(1);

      // A second identical run: same bytes, no second backup.
      expect(await runConfig([item.client, '--write'], machine.deps())).toBe(0);
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(await backupsOf(file)).toHaveLength(1);
    });
  }

  test('writing twice changes nothing the second time (no second backup)', async () => {
    const machine = await makeMachine();
    const file = await machine.place('cursor-mcp.json', join(machine.home, '.cursor', 'mcp.json'));
    await runConfig(['cursor', '--write'], machine.deps());
    const once = await readFile(file, 'utf8');
    await runConfig(['cursor', '--write'], machine.deps());
    expect(await readFile(file, 'utf8')).toBe(once);
    expect(await backupsOf(file)).toHaveLength(1);
    expect(machine.output()).toContain('already has this hub entry');
  });

  test('a symlinked config is written through to its target, the link kept', async () => {
    const machine = await makeMachine();
    const target = await machine.place('gemini-settings.json', join(machine.root, 'dotfiles', 'gemini.json'));
    const link = join(machine.home, '.gemini', 'settings.json');
    await machine.place('gemini-settings.json', join(machine.home, '.gemini', 'placeholder'));
    await symlink(target, link);
    expect(await runConfig(['gemini', '--write'], machine.deps())).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(((await readJson(target)).mcpServers as Record<string, unknown>).hub).toEqual(HUB_ENTRY);
  });
});

describe('hub-mcp config without --write', () => {
  test('prints the entry, where it goes and the claude mcp add command, and writes nothing', async () => {
    const machine = await makeMachine();
    expect(await runConfig(['claude-code'], machine.deps())).toBe(0);
    const output = machine.output();
    expect(output).toContain(join(machine.home, '.claude.json'));
    expect(output).toContain(`"command": "${NODE}"`);
    expect(output).toContain(`claude mcp add --scope user hub -- ${NODE} ${SERVER_JS}`);
    await expect(stat(join(machine.home, '.claude.json'))).rejects.toThrow(/ENOENT/);
  });

  test('codex prints a TOML table', async () => {
    const machine = await makeMachine();
    await runConfig(['codex'], machine.deps());
    expect(machine.output()).toContain('[mcp_servers.hub]');
    expect(machine.output()).toContain(`command = "${NODE}"`);
  });

  test('--json describes the plan for scripts', async () => {
    const machine = await makeMachine();
    await runConfig(['vscode', '--json'], machine.deps());
    const result = JSON.parse(machine.output()) as Record<string, unknown>;
    expect(result).toMatchObject({
      client: 'vscode',
      scope: 'project',
      file: join(machine.project, '.vscode', 'mcp.json'),
      state: 'new-file',
      wrote: false,
      entry: { type: 'stdio', ...HUB_ENTRY },
    });
  });

  test('claude-desktop lives where each OS keeps it', async () => {
    const machine = await makeMachine();
    for (const [platform, env, expected] of [
      ['darwin', {}, join(machine.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')],
      [
        'win32',
        { APPDATA: join(machine.root, 'Roaming') },
        join(machine.root, 'Roaming', 'Claude', 'claude_desktop_config.json'),
      ],
      ['linux', {}, join(machine.home, '.config', 'Claude', 'claude_desktop_config.json')],
    ] as const) {
      const before = machine.output().length;
      await runConfig(['claude-desktop', '--json'], machine.deps({ platform, env }));
      expect((JSON.parse(machine.output().slice(before)) as { file: string }).file).toBe(expected);
    }
  });

  test('an unknown client or scope is an error that lists the choices', async () => {
    const machine = await makeMachine();
    await expect(runConfig(['notepad'], machine.deps())).rejects.toThrow(
      /claude-code, claude-desktop, cursor, vscode, codex, windsurf, gemini/,
    );
    await expect(runConfig(['windsurf', '--scope', 'project'], machine.deps())).rejects.toThrow(/--scope user/);
    await expect(runConfig(['cursor', '--frobnicate'], machine.deps())).rejects.toThrow(/Unknown option --frobnicate/);
    // The one parser (cli/args.ts): the flag named as typed, and the command's usage as the fix.
    await expect(runConfig(['cursor', '--scope'], machine.deps())).rejects.toThrow(
      '--scope needs a value. Usage: hub-mcp config <client> [--scope project|user] [--http [--port N]] [--write | --dry-run] [--json]',
    );
    await expect(runConfig(['cursor', '--json=yes'], machine.deps())).rejects.toThrow(
      /^--json takes no value\. Usage: /,
    );
  });
});
