// Issue 32 item 4: the MCP Server Card (SEP-2127). `hub serve` publishes its card without the
// token, and registry.install { url } reads a remote's card before it connects and says what it
// learned in the consent question; a broken, oversized, foreign or silent card is said in one line
// and the install goes on. Real `hub serve` and stdio hubs from dist/server.js, a real SDK server
// on 127.0.0.1 (test/fixtures/remote-card-server.mjs), raw node:http for the card itself.
import { request } from 'node:http';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { startRemoteFixture } from '../../helpers/remote-fixture.js';
import { startServe } from '../../helpers/serve.js';

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, res => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', chunk => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A stdio hub that answers every consent question yes, keeping each question's text. */
async function askingHub() {
  const home = await makeHubHome();
  const hub = await spawnHub(home, { capabilities: { elicitation: { form: {} } } });
  const questions: string[] = [];
  hub.client.setRequestHandler(ElicitRequestSchema, async (req): Promise<ElicitResult> => {
    questions.push(req.params.message);
    return { action: 'accept', content: { approve: true } };
  });
  return { hub, questions };
}

test('hub serve publishes its Server Card without the token; it holds nothing secret, and /mcp still wants the token', async () => {
  const home = await makeHubHome();
  const served = await startServe(home);
  const token = served.token();
  const got = await get(served.port, '/.well-known/mcp/server-card.json');
  expect(got.status, got.body).toBe(200);
  expect(got.headers['content-type']).toBe('application/json');
  const card = JSON.parse(got.body) as Record<string, unknown>;
  expect(card).toMatchObject({
    name: 'io.github.hub-mcp/hub-mcp',
    title: 'hub',
    version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    remotes: [
      {
        type: 'streamable-http',
        url: served.url,
        authentication: { required: true, schemes: ['bearer'] },
        headers: [expect.objectContaining({ name: 'Authorization', isRequired: true, isSecret: true })],
      },
    ],
    capabilities: expect.objectContaining({ tools: { listChanged: true } }),
  });
  // Nothing a token guards: not the token, not where HUB_HOME is.
  expect(got.body).not.toContain(token);
  expect(got.body).not.toContain(home);
  // HEAD answers the same headers; another method is refused with what to use.
  expect((await get(served.port, '/.well-known/mcp/server-card.json', {}, 'HEAD')).status).toBe(200);
  const posted = await get(served.port, '/.well-known/mcp/server-card.json', {}, 'POST');
  expect(posted.status).toBe(405);
  expect(posted.body).toContain('takes GET');
  // The Host check still applies (DNS rebinding), and the MCP endpoint still wants the token.
  expect((await get(served.port, '/.well-known/mcp/server-card.json', { Host: 'evil.example' })).status).toBe(403);
  expect((await get(served.port, '/mcp')).status).toBe(401);

  // Another hub installs this one by URL: the consent says what the card said, before connecting.
  const { hub, questions } = await askingHub();
  const installed = await hub.call('registry_install', {
    url: served.url,
    name: 'other',
    headers: { Authorization: 'Bearer ${OTHER_TOKEN}' },
    env: { OTHER_TOKEN: token },
  });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  expect(questions).toHaveLength(1);
  expect(questions[0]).toContain('Its server card (http://127.0.0.1:');
  expect(questions[0]).toContain('server: "hub" version');
  expect(questions[0]).toContain('sign-in: required ("bearer")');
  expect(questions[0]).toContain('headers it needs: "Authorization" (secret)');
  expect(questions[0]).not.toContain(token);
  await hub.close();
  expect(await served.stop()).toBe(0);
}, 120_000);

test('registry.install { url } shows the remote card’s tools and sign-in in the consent, then connects', async () => {
  const remote = await startRemoteFixture('remote-card-server.mjs');
  const { hub, questions } = await askingHub();
  try {
    const installed = await hub.call('registry_install', { url: remote.url, name: 'cards' });
    expect(installed.isError, textOf(installed)).toBeFalsy();
    expect(remote.output()).toContain('CARD good');
    expect(questions).toHaveLength(1);
    const [question] = questions;
    expect(question).toContain(`Its server card (http://127.0.0.1:${remote.port}/.well-known/mcp/server-card.json)`);
    expect(question).toContain('server: "Card Fixture" version "3.1.4"');
    expect(question).toContain('sign-in: not required');
    expect(question).toContain('headers it needs: "X-Api-Key" (secret)');
    expect(question).toContain('tools (2): "echo", "lookup"');
    expect(textOf(await hub.call('cards_echo', { text: 'hi' }))).toBe('echo: hi');
  } finally {
    await hub.close();
  }
}, 60_000);

test.each([
  ['not-json', 'it is not JSON'],
  ['huge', "it is larger than hub's limit of 65536 bytes"],
  ['other', 'it names another server ("io.example/elsewhere" at "https://elsewhere.example/mcp")'],
  ['hang', 'no answer within 3000 ms'],
  ['none', 'It publishes no server card'],
])(
  'a card that is %s gets a clear line in the consent and does not block the install',
  async (mode, said) => {
    const remote = await startRemoteFixture('remote-card-server.mjs', ['--card', mode]);
    const { hub, questions } = await askingHub();
    try {
      const installed = await hub.call('registry_install', { url: remote.url, name: 'cards' });
      expect(installed.isError, textOf(installed)).toBeFalsy();
      expect(remote.output()).toContain(`CARD ${mode}`);
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain(said);
      expect(questions[0]).not.toContain('tools (');
      expect(textOf(await hub.call('cards_lookup', { word: 'card' }))).toBe('found card');
    } finally {
      await hub.close();
    }
  },
  60_000,
);
