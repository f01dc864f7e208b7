// The terminal way out of a decline nobody made (issue 27): `codex exec` declines every approval
// prompt by itself; hub's CONSENT_DECLINED names `hub install <package>`, and the person running
// exactly that command installs the server, which the same Codex session then lists and calls.
// The built server in shared-hub mode, the built CLI, real npm against the registry stand-in.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS, spawnHub, textOf } from '../../helpers/hub.js';
import { startNpmHttpsRegistry, type NpmHttpsRegistry } from '../../helpers/npm-https-registry.js';

const run = promisify(execFile);

let registry: NpmHttpsRegistry;
beforeAll(async () => {
  registry = await startNpmHttpsRegistry();
});
afterAll(async () => {
  await registry.close();
});

test('codex-mcp-client declines by itself; the `hub-mcp install` command the error names installs it for that session', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home, {
    clientName: 'codex-mcp-client',
    capabilities: { elicitation: {} },
    env: registry.env,
  });
  hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  try {
    const declined = textOf(await hub.call('registry_install', { package: 'hub-test-echo' }));
    expect(declined).toMatch(/^CONSENT_DECLINED: Install of "hub-test-echo" was declined; nothing was installed\./);
    const command = /run `(hub-mcp install [^`]+)` in a terminal/.exec(declined)?.[1];
    expect(command).toBe('hub-mcp install hub-test-echo');

    // The person types it: the CLI's own install, no prompt (typing it is the approval).
    const env: NodeJS.ProcessEnv = { ...process.env, HUB_HOME: home };
    for (const [key, value] of Object.entries(registry.env))
      if (value === undefined) delete env[key];
      else env[key] = value;
    await run(process.execPath, [SERVER_JS, ...(command ?? '').split(' ').slice(1)], { env });

    // The Codex session sees it without a restart.
    await vi.waitFor(
      async () =>
        expect(textOf(await hub.call('mcp-hub-test-echo_echo', { message: 'after the terminal' }))).toBe(
          'after the terminal',
        ),
      { timeout: 20_000, interval: 200 },
    );
  } finally {
    await hub.close();
  }
}, 180_000);
