// A person's VS Code or Cursor file is JSONC: comments, trailing commas, tabs, CRLF. hub config
// and hub import read it, add or remove their entries, and leave every other byte as it was.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runConfig } from '../../src/cli/config-command.js';
import { runImport } from '../../src/cli/import-command.js';
import { parseJsonc } from '../../src/clients/json-edit.js';
import { loadConfig } from '../../src/core/config/config.js';
import { openStore } from '../../src/store/store.js';
import { makeMachine, NODE, SERVER_JS, type Machine } from './machine.js';

const crlf = (text: string) => text.replace(/\n/g, '\r\n');

// VS Code's own layout (tabs), with the comments and trailing commas it accepts, CRLF line ends.
const VSCODE = crlf(`{
\t// Inputs VS Code prompts for
\t"inputs": [
\t\t{ "type": "promptString", "id": "key", "password": true },
\t],
\t"servers": {
\t\t/* the one I use every day */
\t\t"git": {
\t\t\t"command": "uvx",
\t\t\t"args": ["mcp-server-git"], // pinned
\t\t},
\t\t"remote": { "type": "http", "url": "https://example.com/mcp" }, // stays in VS Code
\t},
}
`);

const CURSOR = `{
  // my servers
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }, // work
    // notes, local only
    "notes": {
      "command": "node",
      "args": ["/opt/notes/server.js"],
    },
    "linear": { "url": "https://mcp.linear.app/sse" }, /* remote */
  },
  "theme": "dark", // not hub's
}
`;

async function place(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

async function markStarted(machine: Machine, names: readonly string[]): Promise<void> {
  const store = openStore(loadConfig({ HUB_HOME: machine.hubHome }).paths);
  await store.update(data => {
    for (const name of names) data.servers[name]!.toolsUpdatedAt = new Date().toISOString();
  });
}

describe('JSONC client files', () => {
  test('hub-mcp config vscode --write adds hub to a file with comments, trailing commas, tabs and CRLF, changing nothing else', async () => {
    const machine = await makeMachine();
    const file = await place(join(machine.project, '.vscode', 'mcp.json'), VSCODE);
    expect(await runConfig(['vscode', '--write'], machine.deps())).toBe(0);
    const after = await readFile(file, 'utf8');
    const hub = crlf(
      `\t\t"hub": {\n\t\t\t"type": "stdio",\n\t\t\t"command": "${NODE}",\n\t\t\t"args": [\n\t\t\t\t"${SERVER_JS}"\n\t\t\t]\n\t\t},\n`,
    );
    // Every line of the person's file is kept, in order; hub's entry goes after the last server,
    // in the file's tabs and CRLF, with the trailing comma the file uses.
    const at = VSCODE.indexOf('\t},\r\n}');
    expect(after).toBe(`${VSCODE.slice(0, at)}${hub}${VSCODE.slice(at)}`);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect((parseJsonc(after) as { servers: Record<string, unknown> }).servers.hub).toMatchObject({ type: 'stdio' });

    // Run again: the same entry is already there, nothing is written.
    expect(await runConfig(['vscode', '--write'], machine.deps())).toBe(0);
    expect(machine.output()).toContain('already has this hub entry; nothing changed');
    expect(await readFile(file, 'utf8')).toBe(after);
  });

  test('hub-mcp config --dry-run shows the one added entry as the diff', async () => {
    const machine = await makeMachine();
    await place(join(machine.home, '.cursor', 'mcp.json'), CURSOR);
    expect(await runConfig(['cursor', '--dry-run'], machine.deps())).toBe(0);
    const added = machine
      .output()
      .split('\n')
      .filter(line => /^[+-](?![+-])/.test(line));
    expect(added).toEqual([
      '+    "hub": {',
      `+      "command": "${NODE}",`,
      '+      "args": [',
      `+        "${SERVER_JS}"`,
      '+      ]',
      '+    },',
    ]);
    expect(machine.output()).not.toContain('could not be edited in place');
  });

  test('hub-mcp import cursor --remove drops the imported servers and keeps the comments of everything else', async () => {
    const machine = await makeMachine();
    const file = await place(join(machine.home, '.cursor', 'mcp.json'), CURSOR);
    expect(await runImport(['cursor', '--no-start'], machine.deps())).toBe(0);
    await markStarted(machine, ['github', 'notes']);
    expect(await runImport(['cursor', '--no-start', '--remove', '--yes'], machine.deps())).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(`{
  // my servers
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/sse" }, /* remote */
  },
  "theme": "dark", // not hub's
}
`);
  });

  test('the last server leaves with its comma on the line before; a CRLF file stays CRLF', async () => {
    const machine = await makeMachine();
    const text = crlf(`{
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/sse" }, // remote
    // mine
    "notes": { "command": "node", "args": ["/opt/notes/server.js"] }
  }
}
`);
    const file = await place(join(machine.home, '.cursor', 'mcp.json'), text);
    await runImport(['cursor', '--no-start'], machine.deps());
    await markStarted(machine, ['notes']);
    await runImport(['cursor', '--no-start', '--remove', '--yes'], machine.deps());
    expect(await readFile(file, 'utf8')).toBe(
      crlf(`{
  "mcpServers": {
    "linear": { "url": "https://mcp.linear.app/sse" } // remote
  }
}
`),
    );
  });

  test('a file that is not JSON even with comments is refused, naming where, and left untouched', async () => {
    const machine = await makeMachine();
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n  \n';
    const file = await place(join(machine.home, '.cursor', 'mcp.json'), broken);
    await expect(runConfig(['cursor', '--write'], machine.deps())).rejects.toThrow(
      /mcp\.json is not valid JSON: CloseBraceExpected at line 5, column 1\. Fix it or add the entry by hand; hub left it untouched\./,
    );
    expect(await readFile(file, 'utf8')).toBe(broken);
  });
});
