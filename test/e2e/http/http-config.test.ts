// Issue 15 item 4: `hub config <client> --http` writes hub serve's URL with the token header in
// the form each client reads (parsed back from the written file), user scope only, the token
// never printed; Claude Desktop (stdio only) is refused with what to do instead. The built CLI.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';

const run = promisify(execFile);

async function tempHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'hub-config-http-'));
  onTestFinished(() => rm(home, { recursive: true, force: true }));
  return home;
}

async function config(hubHome: string, home: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HUB_HOME: hubHome,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  delete env.CODEX_HOME;
  try {
    const { stdout, stderr } = await run(process.execPath, [SERVER_JS, 'config', ...args], { env, cwd: home });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;

// Where each client reads the hub entry back, and the entry it must hold for url + token.
const CLIENTS: Record<string, (home: string, url: string, token: string) => [unknown, unknown]> = {
  'claude-code': (home, url, token) => [
    readJson(join(home, '.claude.json')).mcpServers!.hub,
    { type: 'http', url, headers: { Authorization: `Bearer ${token}` } },
  ],
  cursor: (home, url, token) => [
    readJson(join(home, '.cursor', 'mcp.json')).mcpServers!.hub,
    { url, headers: { Authorization: `Bearer ${token}` } },
  ],
  vscode: (home, url, token) => [
    readJson(join(home, '.config', 'Code', 'User', 'mcp.json')).servers!.hub,
    { type: 'http', url, headers: { Authorization: `Bearer ${token}` } },
  ],
  codex: (home, url, token) => [
    (parseToml(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')) as Record<string, Record<string, unknown>>)
      .mcp_servers!.hub,
    { url, http_headers: { Authorization: `Bearer ${token}` } },
  ],
  gemini: (home, url, token) => [
    readJson(join(home, '.gemini', 'settings.json')).mcpServers!.hub,
    { httpUrl: url, headers: { Authorization: `Bearer ${token}` } },
  ],
  windsurf: (home, url, token) => [
    readJson(join(home, '.codeium', 'windsurf', 'mcp_config.json')).mcpServers!.hub,
    { serverUrl: url, headers: { Authorization: `Bearer ${token}` } },
  ],
};

test.each(Object.keys(CLIENTS))(
  'hub-mcp config %s --http --write: the URL form with the token header, read back from the file',
  async client => {
    const hubHome = await makeHubHome();
    const home = await tempHome();
    const wrote = await config(hubHome, home, client, '--http', '--write');
    expect(wrote.code, wrote.stderr).toBe(0);
    // The token was made on first use (0600) and never printed.
    const token = readFileSync(join(hubHome, 'http-token'), 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(wrote.stdout + wrote.stderr).not.toContain(token);
    const [entry, expected] = CLIENTS[client]!(home, 'http://127.0.0.1:7717/mcp', token);
    expect(entry).toEqual(expected);
    expect(statSync(join(hubHome, 'http-token')).mode & 0o777).toBe(0o600);

    // --port, and a second run that changes nothing.
    expect((await config(hubHome, home, client, '--http', '--port', '9911', '--write')).code).toBe(0);
    expect(CLIENTS[client]!(home, 'http://127.0.0.1:9911/mcp', token)[0]).toEqual(
      CLIENTS[client]!(home, 'http://127.0.0.1:9911/mcp', token)[1],
    );
    const again = await config(hubHome, home, client, '--http', '--port', '9911', '--write');
    expect(again.stdout).toContain('already has this hub entry');
  },
);

test('switching a stdio entry to --http keeps a person’s own fields and drops the stdio ones; --json hides the token too', async () => {
  const hubHome = await makeHubHome();
  const home = await tempHome();
  mkdirSync(join(home, '.cursor'));
  const file = join(home, '.cursor', 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        hub: { command: 'node', args: ['x.js'], env: { HUB_EXPOSURE: 'all' }, disabled: false },
        other: { command: 'o' },
      },
    }),
  );
  const json = await config(hubHome, home, 'cursor', '--http', '--write', '--json');
  expect(json.code, json.stderr).toBe(0);
  const token = readFileSync(join(hubHome, 'http-token'), 'utf8').trim();
  expect(json.stdout).not.toContain(token);
  expect(JSON.parse(json.stdout)).toMatchObject({ client: 'cursor', scope: 'user', state: 'replaced', wrote: true });
  // The file was 0644 (made by this test): hub keeps the mode and says so, the token now being in it.
  expect(JSON.parse(json.stdout).warnings).toEqual([
    expect.stringMatching(/readable by others \(mode 644\).*chmod 600/),
  ]);
  const written = readJson(file).mcpServers!;
  expect(written.hub).toEqual({
    url: 'http://127.0.0.1:7717/mcp',
    headers: { Authorization: `Bearer ${token}` },
    disabled: false,
  });
  expect(written.other).toEqual({ command: 'o' });

  // And back to stdio: the URL keys go.
  expect((await config(hubHome, home, 'cursor', '--write')).code).toBe(0);
  const back = readJson(file).mcpServers!.hub as Record<string, unknown>;
  expect(Object.keys(back).sort()).toEqual(['args', 'command', 'disabled']);
});

test('refusals: Claude Desktop (stdio only), a project-scope file (shared through git), --exposure or --port misuse; nothing written', async () => {
  const hubHome = await makeHubHome();
  const home = await tempHome();
  const desktop = await config(hubHome, home, 'claude-desktop', '--http', '--write');
  expect(desktop.code).toBe(2);
  expect(desktop.stderr).toMatch(
    /Claude Desktop starts only stdio servers.*hub-mcp config claude-desktop without --http/s,
  );
  expect(existsSync(join(home, '.config', 'Claude'))).toBe(false);
  expect(existsSync(join(hubHome, 'http-token'))).toBe(false);

  const project = await config(hubHome, home, 'vscode', '--http', '--scope', 'project', '--write');
  expect(project.code).toBe(2);
  expect(project.stderr).toMatch(/shared through git: use --scope user/);
  expect(existsSync(join(home, '.vscode'))).toBe(false);

  const exposure = await config(hubHome, home, 'cursor', '--http', '--exposure', 'all');
  expect(exposure.code).toBe(2);
  expect(exposure.stderr).toMatch(/--exposure/);
  const port = await config(hubHome, home, 'cursor', '--port', '80');
  expect(port.code).toBe(2);
  expect(port.stderr).toMatch(/--port goes with --http/);
  const badPort = await config(hubHome, home, 'cursor', '--http', '--port', 'x');
  expect(badPort.code).toBe(2);
  expect(badPort.stderr).toMatch(/--port must be/);
  expect(existsSync(join(home, '.cursor'))).toBe(false);
});
