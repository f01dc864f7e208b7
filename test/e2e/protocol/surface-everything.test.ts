// @modelcontextprotocol/server-everything connected directly (SDK Client over stdio) and through
// the built hub (dist/server.js) side by side: prompts, resources (every page, text and blob,
// templates, completion of a template variable), a subscription that receives an update, log
// messages at the level the client set, a resource_link from a tool result read through hub;
// then hub restarted and the lists served from the store with no child running.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type LoggingMessageNotification,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { baseDottedName, underscoreName } from '../../../src/core/exposed-names.js';
import { START_MARKER } from '../../../src/proxy/child/server-log.js';
import { openStore } from '../../../src/store/store.js';
import { makeHubHome } from '../../helpers/home.js';
import { stopSharedHubIn } from '../../helpers/shared-hub.js';
import { spawnHub, type HubSession } from '../../helpers/hub.js';
import { commandRecord, putRecords, until } from '../../proxy/harness.js';

const EVERYTHING = fileURLToPath(
  new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

async function direct(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
  onTestFinished(() => client.close());
  return client;
}

type Lister = Pick<Client, 'listResources'>;
async function everyResource(client: Lister): Promise<{ resources: { uri: string }[]; pages: number }> {
  const resources: { uri: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    resources.push(...page.resources);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { resources, pages };
}

// Dynamic resources carry the time they were made: equal but for that.
const TIME = /\d{4}-\d{2}-\d{2}T[\d:.]+Z|\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?/g;
const normalized = (result: ReadResourceResult) =>
  result.contents.map(content => ({
    ...content,
    ...('text' in content && { text: content.text.replace(TIME, 'T') }),
    ...('blob' in content && { blob: Buffer.from(content.blob, 'base64').toString('utf8').replace(TIME, 'T') }),
  }));

const exposed = (name: string) => underscoreName(baseDottedName('everything', name));
const starts = async (home: string) =>
  (await readFile(join(home, 'logs', 'servers', 'everything.log'), 'utf8')).split(START_MARKER).length - 1;

describe('server-everything directly and through hub, side by side', () => {
  test('prompts, resources, templates, completion, subscription, logging, resource links; then a restart', async () => {
    const home = await makeHubHome();
    await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('everything', [EVERYTHING]));
    const plain = await direct();
    let hub: HubSession = await spawnHub(home);
    onTestFinished(() => hub.close());
    // Its first start (an install does the same) caches what it offers.
    await hub.call('registry_call', { server: 'everything', tool: 'echo', arguments: { message: 'hi' } });
    // Read behind that first call, and announced (list_changed) once cached.
    await until(async () => expect((await hub.client.listPrompts()).prompts.length).toBeGreaterThan(0));
    // server-everything's two templates, then hub's own log template.
    await until(async () => expect((await hub.client.listResourceTemplates()).resourceTemplates.length).toBe(3));

    // Prompts: the same, under hub's names, with the server in the description.
    const directPrompts = (await plain.listPrompts()).prompts;
    const hubPrompts = (await hub.client.listPrompts()).prompts;
    expect(directPrompts.length).toBeGreaterThanOrEqual(4);
    expect(hubPrompts).toEqual(
      directPrompts.map(prompt => ({
        ...prompt,
        name: exposed(prompt.name),
        description: `[everything] ${prompt.description}`,
      })),
    );
    const args = { city: 'Paris', state: 'Texas' };
    expect(await hub.client.getPrompt({ name: exposed('args-prompt'), arguments: args })).toEqual(
      await plain.getPrompt({ name: 'args-prompt', arguments: args }),
    );
    const department = { name: 'department', value: 'E' };
    expect(
      await hub.client.complete({
        ref: { type: 'ref/prompt', name: exposed('completable-prompt') },
        argument: department,
      }),
    ).toEqual(await plain.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: department }));

    // Resources: every page of each, the same entries in the same order.
    const [directAll, hubAll] = [await everyResource(plain), await everyResource(hub.client)];
    // hub lists its own resources (hub://…) after the server's.
    const servers = (uri: string) => !uri.startsWith('hub://');
    expect(hubAll.resources.filter(resource => servers(resource.uri))).toEqual(directAll.resources);
    expect(hubAll.resources.length).toBeGreaterThan(0);
    expect(
      (await hub.client.listResourceTemplates()).resourceTemplates.filter(template => servers(template.uriTemplate)),
    ).toEqual((await plain.listResourceTemplates()).resourceTemplates);
    for (const uri of [
      (directAll.resources[0] as { uri: string }).uri,
      'demo://resource/dynamic/text/1',
      'demo://resource/dynamic/blob/2',
    ]) {
      const [mine, theirs] = [await hub.client.readResource({ uri }), await plain.readResource({ uri })];
      expect(normalized(mine), uri).toEqual(normalized(theirs));
    }
    const variable = { name: 'resourceId', value: '1' };
    const ref = { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' } as const;
    expect(await hub.client.complete({ ref, argument: variable })).toEqual(
      await plain.complete({ ref, argument: variable }),
    );

    // A resource_link in a tool result, read through hub.
    const links = await hub.call(exposed('get-resource-links'), { count: 2 });
    const linked = links.content.filter(block => block.type === 'resource_link');
    expect(linked).toHaveLength(2);
    for (const link of linked) {
      const read = await hub.client.readResource({ uri: link.uri });
      expect(normalized(read)).toEqual(normalized(await plain.readResource({ uri: link.uri })));
    }

    // A subscription that receives an update (server-everything sends them every 5 s once toggled).
    const updated: string[] = [];
    hub.client.setNotificationHandler(ResourceUpdatedNotificationSchema, notice => {
      updated.push(notice.params.uri);
    });
    const watched = 'demo://resource/dynamic/text/1';
    await hub.client.subscribeResource({ uri: watched });
    await hub.call(exposed('toggle-subscriber-updates'));
    await until(() => expect(updated).toContain(watched), 30_000);

    // Log messages at the level the client set, under the server's name.
    const messages: LoggingMessageNotification['params'][] = [];
    hub.client.setNotificationHandler(LoggingMessageNotificationSchema, notice => {
      messages.push(notice.params);
    });
    await hub.client.setLoggingLevel('warning');
    await hub.call(exposed('toggle-simulated-logging'));
    await until(() => expect(messages.length).toBeGreaterThanOrEqual(2), 40_000);
    for (const message of messages) {
      expect(message.logger).toBe('everything');
      expect(['warning', 'error', 'critical', 'alert', 'emergency']).toContain(message.level);
    }
    expect(await readFile(join(home, 'logs', 'servers', 'everything.log'), 'utf8')).toMatch(
      /\[(warning|error|critical|alert|emergency)\] /,
    );
    await hub.close();
    // A restart of hub: the shared hub too (its children outlive an entry, for other sessions).
    await stopSharedHubIn(home);

    // Restarted: the lists come from the store, and no child starts to give them.
    const before = await starts(home);
    hub = await spawnHub(home);
    expect((await hub.client.listPrompts()).prompts).toEqual(hubPrompts);
    expect((await everyResource(hub.client)).resources.filter(resource => servers(resource.uri))).toEqual(
      directAll.resources,
    );
    expect((await hub.client.listResourceTemplates()).resourceTemplates).toHaveLength(3);
    expect(await starts(home)).toBe(before);
    // A read starts it lazily.
    const text = await hub.client.readResource({ uri: 'demo://resource/dynamic/text/3' });
    expect(normalized(text)).toEqual(normalized(await plain.readResource({ uri: 'demo://resource/dynamic/text/3' })));
    expect(await starts(home)).toBe(before + 1);
  }, 120_000);
});
