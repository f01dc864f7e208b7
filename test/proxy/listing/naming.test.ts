// Exposed names with a real child: underscore mode, both spellings, hub tools never shadowed,
// long names stable across two managers on the same store.
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { textOf } from '../../helpers/hub.js';
import { ECHO, commandRecord, putRecords, startHarness } from '../harness.js';

const LONG = 'summarize_the_entire_repository_history_in_detail';
const EXTRA = JSON.stringify(['start_process', 'registry.list', 'get_free_port', LONG]);

describe('naming with a real child', () => {
  test('the default (auto) setting gives underscore names and both spellings call the same tool', async () => {
    const home = await makeHubHome();
    const hub = await startHarness(home, { toolNames: 'auto' });
    await putRecords(hub.store, commandRecord('echo', [ECHO]));
    await hub.manager.start('echo');
    const names = (await hub.client.listTools()).tools.map(tool => tool.name);
    expect(names).toContain('echo_echo');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(textOf(await hub.call('echo_echo', { text: 'under' }))).toBe('under');
    expect(textOf(await hub.call('echo.echo', { text: 'dot' }))).toBe('dot');
  });

  test("a child's start_process or registry.list never shadows the hub tool; long names fit and stay stable", async () => {
    const home = await makeHubHome();
    const first = await startHarness(home);
    await putRecords(first.store, commandRecord('get', [ECHO], { env: { ECHO_EXTRA_TOOLS: EXTRA } }));
    await first.manager.start('get');
    for (const hubTool of ['start_process', 'registry.list', 'registry_list', 'get_free_port'])
      expect(first.manager.find(hubTool)).toBeUndefined();
    const dotted = first.manager.list('dotted').map(tool => tool.name);
    const underscore = first.manager.list('underscore').map(tool => tool.name);
    expect(dotted).toEqual(expect.arrayContaining(['get.start_process', 'get.registry.list', 'get.get_free_port']));
    expect(underscore).toEqual(expect.arrayContaining(['get_start_process', 'get_registry_list', 'get_get_free_port']));
    expect(textOf(await first.call('get.registry.list'))).toBe('registry.list');
    expect(textOf(await first.call('get_start_process'))).toBe('start_process');
    for (const name of [...dotted, ...underscore]) {
      expect(name.length).toBeLessThanOrEqual(40);
      expect(name).not.toContain('__');
    }
    const long = first.manager.list('dotted').find(tool => tool.name.startsWith('get.summariz'));
    expect(long?.name).toBe('get.summariz_history_in_detail');
    expect(textOf(await first.call(long?.name ?? ''))).toBe(LONG);
    await first.close();

    // A new manager over the same store (a hub restart, or a second hub) lists the same names.
    const second = await startHarness(home);
    expect(second.manager.list('dotted').map(tool => tool.name)).toEqual(dotted);
    expect(second.manager.list('underscore').map(tool => tool.name)).toEqual(underscore);
    expect((await second.manager.status('get'))[0]?.pid).toBeUndefined();
  });
});
