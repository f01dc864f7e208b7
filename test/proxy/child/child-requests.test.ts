// A child's requests to the person (elicitation, sampling) with real children: labelled with the
// server's name, so no child can pass for hub (e.g. by copying its install-consent prompt), and
// refused when none of its calls is in progress unless config allows it.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CreateMessageRequest,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { fixture, textOf } from '../../helpers/hub.js';
import { commandRecord, putRecords, startHarness, until, type Harness, type HarnessOptions } from '../harness.js';

const ASKER = fixture('child-asker.mjs');
// What hub's own consent prompt looks like, copied by a hostile child.
const IMITATION = 'hub asks: install "@evil/pkg" and run `node index.js`? Approve to continue.';

interface Asked {
  elicitations: ElicitRequest['params'][];
  samplings: CreateMessageRequest['params'][];
}

async function harnessWithPerson(home: string, manager: HarnessOptions['manager'] = {}): Promise<Harness & Asked> {
  const asked: Asked = { elicitations: [], samplings: [] };
  const hub = await startHarness(home, {
    capabilities: { elicitation: {}, sampling: {} },
    manager,
    prepareClient(client) {
      client.setRequestHandler(ElicitRequestSchema, request => {
        asked.elicitations.push(request.params);
        return { action: 'accept', content: { ok: true } };
      });
      client.setRequestHandler(CreateMessageRequestSchema, request => {
        asked.samplings.push(request.params);
        return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'test-model' };
      });
    },
  });
  return Object.assign(hub, asked);
}

async function exposed(hub: Harness, server: string, tool: string): Promise<string> {
  const names = (await hub.client.listTools()).tools.map(entry => entry.name);
  const name = names.find(candidate => candidate === `${server}.${tool}` || candidate === `${server}_${tool}`);
  if (!name) throw new Error(`no ${server} ${tool} in ${names.join(', ')}`);
  return name;
}

const events = (file: string): string[] => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

describe('requests from a child to the person', () => {
  test('an elicitation during a call that imitates hub consent text reaches the person labelled with the server name', async () => {
    const home = await makeHubHome();
    const hub = await harnessWithPerson(home);
    await putRecords(hub.store, commandRecord('asker', [ASKER]));
    await hub.manager.start('asker');
    const result = await hub.call(await exposed(hub, 'asker', 'ask'), { message: IMITATION });
    expect(JSON.parse(textOf(result))).toMatchObject({ action: 'accept' });
    expect(hub.elicitations.map(params => params.message)).toEqual([`[server asker] ${IMITATION}`]);
  });

  test('a sampling request during a call says which server asks in its system prompt', async () => {
    const home = await makeHubHome();
    const hub = await harnessWithPerson(home);
    await putRecords(hub.store, commandRecord('asker', [ASKER]));
    await hub.manager.start('asker');
    await hub.call(await exposed(hub, 'asker', 'sample'), { system: 'Be brief.' });
    expect(hub.samplings).toHaveLength(1);
    expect(hub.samplings[0]?.systemPrompt).toMatch(/^\[server asker\] .*"asker"/);
    expect(hub.samplings[0]?.systemPrompt).toContain('Be brief.');
  });

  test('a child that elicits and samples with no call in progress is refused; the person is never asked', async () => {
    const home = await makeHubHome();
    const file = join(await makeScratchDir(), 'events');
    const hub = await harnessWithPerson(home);
    await putRecords(hub.store, commandRecord('asker', [ASKER], { env: { ASK_UNSOLICITED: '1', ASK_EVENTS: file } }));
    await hub.manager.start('asker');
    await until(() => expect(events(file)).toHaveLength(2));
    expect(events(file)[0]).toMatch(/^elicit refused .*only while one of its tool calls is in progress/);
    expect(events(file)[1]).toMatch(/^sample refused /);
    expect(hub.elicitations).toEqual([]);
    expect(hub.samplings).toEqual([]);
  });

  test('with proxy.allowUnsolicitedRequests in config.json a request outside a call is relayed, still labelled', async () => {
    const home = await makeHubHome();
    const file = join(await makeScratchDir(), 'events');
    await writeFile(join(home, 'config.json'), JSON.stringify({ proxy: { allowUnsolicitedRequests: true } }));
    const hub = await harnessWithPerson(home);
    await putRecords(hub.store, commandRecord('asker', [ASKER], { env: { ASK_UNSOLICITED: '1', ASK_EVENTS: file } }));
    await hub.manager.start('asker');
    await until(() => expect(events(file)).toHaveLength(2));
    expect(events(file)[0]).toMatch(/^elicit answered .*accept/);
    expect(hub.elicitations.map(params => params.message)).toEqual([
      '[server asker] hub wants to install a package. Approve?',
    ]);
    expect(hub.samplings[0]?.systemPrompt).toMatch(/^\[server asker\]/);
  });
});
