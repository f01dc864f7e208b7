// hub import takes a client's URL servers too: with their headers (secrets, never printed), a
// client's ${env:NAME} made hub's ${NAME}, started once against a real Streamable HTTP server on
// 127.0.0.1; --remove then drops only the ones that connected.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/cli/import-command.js';
import { makeMachine } from '../../clients/machine.js';
import { startRemoteFixture } from '../../helpers/remote-fixture.js';

const SECRET = 'import-secret-5e1b';

describe('hub-mcp import of URL servers', () => {
  test('imported with headers, started once, and only the one that connected leaves the client', async () => {
    const server = await startRemoteFixture('remote-server.mjs', ['--require-header', `X-Api-Key=${SECRET}`]);
    const machine = await makeMachine();
    const file = join(machine.home, '.cursor', 'mcp.json');
    await mkdir(join(machine.home, '.cursor'), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          docs: { url: server.url, headers: { 'X-Api-Key': SECRET } },
          // Nothing listens there: it never connects, so it stays in the client.
          gone: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${env:GONE_TOKEN}' } },
          ws: { url: 'ws://127.0.0.1:9/socket' },
        },
      }),
    );
    expect(await runImport(['cursor', '--remove', '--yes'], machine.deps())).toBe(0);
    const output = machine.output();
    expect(output).not.toContain(SECRET);
    expect(output).toMatch(/\+ docs +http:\/\/127\.0\.0\.1:\d+\/mcp {2}\(headers: X-Api-Key\) — \d+ tools/);
    expect(output).toMatch(/- ws +skipped: WebSocket server/);
    const db = JSON.parse(await readFile(join(machine.hubHome, 'db.json'), 'utf8')) as {
      servers: Record<
        string,
        { kind?: string; remote?: { url: string; headers?: Record<string, string>; transport?: string } }
      >;
    };
    expect(db.servers.docs).toMatchObject({
      kind: 'remote',
      remote: { url: server.url, headers: { 'X-Api-Key': SECRET } },
    });
    expect(db.servers.gone?.remote).toEqual({
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer ${GONE_TOKEN}' },
      transport: 'streamable-http',
    });
    const left = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(left.mcpServers).sort()).toEqual(['gone', 'ws']);
  });
});
