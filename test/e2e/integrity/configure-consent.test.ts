// The person decides what the agent may re-open: through registry.configure the agent narrows
// alone (disable, deny, a first allow-list), but enabling a disabled server, lifting a deny or
// allowing more asks the user through elicitation (as an install does), and a client that cannot
// ask gets the refusal with the exact `hub servers configure …` command in structuredContent.
// The CLI never asks. Real hubs (dist/server.js over stdio), a real child (changing-server.mjs).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { cliStdout } from '../../helpers/cli.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf, type HubSession } from '../../helpers/hub.js';

const CHANGING = fixture('changing-server.mjs');

async function installChanging(hub: HubSession): Promise<void> {
  const installed = await hub.call('registry_install', { command: process.execPath, args: [CHANGING], name: 'chg' });
  expect(installed.isError, textOf(installed)).toBeFalsy();
}

const settingsOf = async (hub: HubSession): Promise<unknown> =>
  (await hub.call('registry_list', { server: 'chg' })).structuredContent?.settings;

test('a client that cannot ask: narrowing applies, widening is refused with the terminal command, which works', async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home);
  try {
    await installChanging(hub);
    for (const narrow of [{ enabled: false }, { tools: { deny: ['greet', 'a*'] } }, { tools: { allow: ['add'] } }]) {
      const done = await hub.call('registry_configure', { server: 'chg', ...narrow });
      expect(done.isError, textOf(done)).toBeFalsy();
    }
    const settings = { enabled: false, deny: ['greet', 'a*'], allow: ['add'] };
    expect(await settingsOf(hub)).toEqual(settings);

    const cases: [object, string, string][] = [
      [{ enabled: true }, 'enable it', 'hub-mcp servers configure chg --enable'],
      [{ tools: { deny: ['greet'] } }, 'stop denying: a*', 'hub-mcp servers configure chg --deny greet'],
      [{ tools: { deny: [] } }, 'stop denying: greet, a*', 'hub-mcp servers configure chg --no-deny'],
      [
        { tools: { allow: ['add', 'env'] } },
        'also allow: env',
        'hub-mcp servers configure chg --allow add --allow env',
      ],
      [{ tools: { allow: [] } }, 'drop the allow-list', 'hub-mcp servers configure chg --no-allow'],
      // A narrowing part does not carry a widening one through.
      [{ enabled: true, tools: { deny: ['*'] } }, 'enable it', "hub-mcp servers configure chg --enable --deny '*'"],
    ];
    for (const [change, why, command] of cases) {
      const refused = await hub.call('registry_configure', { server: 'chg', ...change });
      expect(refused.isError, JSON.stringify(change)).toBe(true);
      expect(textOf(refused)).toMatch(/^CONSENT_UNAVAILABLE: Nothing changed/);
      expect(textOf(refused)).toContain(why);
      expect(refused.structuredContent).toMatchObject({
        name: 'chg',
        enabled: false,
        tools: { allow: ['add'], deny: ['greet', 'a*'] },
        next: `Ask the user to run in a terminal (typing it is the approval): ${command}`,
      });
      expect(await settingsOf(hub)).toEqual(settings);
    }

    // The person types the command: nothing is asked, and it applies.
    await cliStdout(home, 'servers', 'configure', 'chg', '--enable', '--no-deny', '--no-allow');
    expect(await settingsOf(hub)).toBeUndefined();
    expect(textOf(await hub.call('chg_add', { a: 2, b: 3 }))).toBe('5');
  } finally {
    await hub.close();
  }
}, 120_000);

test('a client that can ask: the user is asked only for widening; decline changes nothing, accept applies', async () => {
  const home = await makeHubHome();
  const questions: string[] = [];
  let answer: ElicitResult = { action: 'decline' };
  const hub = await spawnHub(home, { capabilities: { elicitation: { form: {} } } });
  hub.client.setRequestHandler(ElicitRequestSchema, request => {
    questions.push(request.params.message);
    return request.params.message.startsWith('Register the command')
      ? { action: 'accept', content: { approve: true } }
      : answer;
  });
  try {
    await installChanging(hub);
    questions.length = 0;
    expect(
      (await hub.call('registry_configure', { server: 'chg', enabled: false, tools: { deny: ['greet'] } })).isError,
    ).toBeFalsy();
    expect(questions).toEqual([]);

    const declined = await hub.call('registry_configure', { server: 'chg', enabled: true, tools: { deny: [] } });
    expect(textOf(declined)).toMatch(/^CONSENT_DECLINED: The user did not approve this change of "chg"/);
    expect(declined.structuredContent).toMatchObject({
      enabled: false,
      next: expect.stringContaining('hub-mcp servers configure chg --enable --no-deny'),
    });
    expect(questions).toEqual([
      'The agent asks to change MCP server "chg" in every hub:\n- enable it (it is disabled now)\n- stop denying: greet\nApprove?',
    ]);
    expect(await settingsOf(hub)).toEqual({ enabled: false, deny: ['greet'] });

    answer = { action: 'cancel' };
    expect(textOf(await hub.call('registry_configure', { server: 'chg', enabled: true }))).toMatch(
      /^CONSENT_UNAVAILABLE: Nothing changed: the question was closed unanswered/,
    );
    answer = { action: 'accept', content: { approve: false } };
    expect(textOf(await hub.call('registry_configure', { server: 'chg', enabled: true }))).toMatch(/^CONSENT_DECLINED/);
    expect(await settingsOf(hub)).toEqual({ enabled: false, deny: ['greet'] });

    answer = { action: 'accept', content: { approve: true } };
    const accepted = await hub.call('registry_configure', { server: 'chg', enabled: true, tools: { deny: [] } });
    expect(accepted.isError, textOf(accepted)).toBeFalsy();
    expect(accepted.structuredContent).toMatchObject({ enabled: true, tools: {} });
    expect(await settingsOf(hub)).toBeUndefined();
    expect(textOf(await hub.call('chg_greet', { name: 'x' }))).not.toMatch(/TOOL_REFUSED|SERVER_DISABLED/);
  } finally {
    await hub.close();
  }
}, 120_000);

test('config install.confirm "never" lets the agent widen without asking', async () => {
  const home = await makeHubHome();
  await writeFile(join(home, 'config.json'), JSON.stringify({ install: { confirm: 'never' } }));
  const hub = await spawnHub(home);
  try {
    await installChanging(hub);
    await hub.call('registry_configure', { server: 'chg', enabled: false });
    const enabled = await hub.call('registry_configure', { server: 'chg', enabled: true });
    expect(enabled.isError, textOf(enabled)).toBeFalsy();
    expect(enabled.structuredContent).toMatchObject({ enabled: true });
  } finally {
    await hub.close();
  }
}, 120_000);
