// Issue 27, item 8: tools that need a client capability. hub learns that a proxied tool needs
// elicitation or sampling when the child asks for it during that tool's call, keeps it in the
// store, and lists the tool marked to a session whose client does not offer it. The built hub
// (dist/server.js), sessions of one shared hub, and the real @modelcontextprotocol/server-everything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateMessageRequestSchema, ElicitRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { spawnHub, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords, until } from '../../proxy/harness.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const exposed = (name: string) => underscoreName(baseDottedName('everything', name));
const ELICIT = exposed('trigger-elicitation-request');
const SAMPLE = exposed('trigger-sampling-request');
const ECHO = exposed('echo');

const describedAs = (tools: Tool[], name: string): string => {
  const tool = tools.find(entry => entry.name === name);
  expect(tool, `${name} is listed`).toBeDefined();
  return tool!.description ?? '';
};
const needsOf = (home: string): unknown =>
  (JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as { servers: Record<string, { toolNeeds?: unknown }> })
    .servers.everything?.toolNeeds;

describe('tools that need a client capability (item 8)', () => {
  test('learned from one call, kept in the store, marked for a client that lacks it and only for it', async () => {
    const home = await makeHubHome();
    onTestFinished(() => stopSharedHubIn(home));
    await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('everything', [EVERYTHING]));

    // Client A offers elicitation and sampling, and answers both.
    const a: HubSession = await spawnHub(home, {
      clientName: 'claude-code',
      capabilities: { elicitation: {}, sampling: {} },
    });
    onTestFinished(() => a.close());
    a.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
    a.client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled' },
      model: 'stand-in',
    }));
    // The first start caches the tools; nothing is known to need anything yet.
    const first = await a.call('registry_call', { server: 'everything', tool: 'echo', arguments: { message: 'hi' } });
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    await until(async () => expect((await a.client.listTools()).tools.map(tool => tool.name)).toContain(ELICIT));
    expect(needsOf(home)).toBeUndefined();
    const elicited = await a.call(ELICIT, {});
    expect(elicited.isError, JSON.stringify(elicited)).toBeFalsy();
    expect(JSON.stringify(elicited)).toContain('Ada');
    const sampled = await a.call(SAMPLE, { prompt: 'hello', maxTokens: 10 });
    expect(sampled.isError, JSON.stringify(sampled)).toBeFalsy();
    expect(JSON.stringify(sampled)).toContain('sampled');
    // Kept with the server's record, so every hub and session knows it.
    await until(() =>
      expect(needsOf(home)).toEqual({
        'trigger-elicitation-request': ['elicitation'],
        'trigger-sampling-request': ['sampling'],
      }),
    );

    // Client B (Cursor, which declares neither) sees both tools marked; the others are not.
    const b = await spawnHub(home, { clientName: 'cursor' });
    onTestFinished(() => b.close());
    const listedB = (await b.client.listTools()).tools;
    expect(describedAs(listedB, ELICIT)).toMatch(
      /^\(Needs elicitation, which this client does not offer: it may fail here\.\) \[everything\] /,
    );
    expect(describedAs(listedB, SAMPLE)).toMatch(
      /^\(Needs sampling, which this client does not offer: it may fail here\.\) \[everything\] /,
    );
    expect(describedAs(listedB, ECHO)).toMatch(/^\[everything\] /);
    // A failed call still says why.
    const refused = await b.call(ELICIT, {}).then(
      result => JSON.stringify(result),
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/does not support elicitation/);

    // Client A offers both: nothing is marked for it.
    const listedA = (await a.client.listTools()).tools;
    expect(describedAs(listedA, ELICIT)).toMatch(/^\[everything\] /);
    expect(describedAs(listedA, SAMPLE)).toMatch(/^\[everything\] /);

    // A client that offers elicitation only: only the sampling tool is marked.
    const c = await spawnHub(home, { clientName: 'cursor', capabilities: { elicitation: {} } });
    onTestFinished(() => c.close());
    const listedC = (await c.client.listTools()).tools;
    expect(describedAs(listedC, ELICIT)).toMatch(/^\[everything\] /);
    expect(describedAs(listedC, SAMPLE)).toMatch(/^\(Needs sampling, /);
  });
});
