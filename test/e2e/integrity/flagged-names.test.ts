// Issue 28 ("the detours a request takes"): the names hub's own results give for a server's tools
// come from the routing table the manager lists, not from a table rebuilt from db.json. With
// integrity "flag" a changed tool is listed (marked); a table rebuilt from db.json with the
// default setting withheld it, so registry.list, hub://servers and registry.list { server }
// spelled it dotted (`chg.greet`) or not at all for an underscore client. Real hub over stdio,
// a real child whose tools follow a file (test/fixtures/changing-server.mjs).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { makeHubHome, sharedFile } from '../../helpers/home.js';
import { spawnHub } from '../../helpers/hub.js';
import { until } from '../../proxy/harness.js';
import { installChanging } from '../../helpers/changing-server.js';

interface Listed {
  servers: { name: string; tools: string[] }[];
}

test('a tool listed flagged (integrity "flag") is named in hub results as tools/list names it', async () => {
  const home = await makeHubHome();
  await writeFile(join(home, 'config.json'), JSON.stringify({ integrity: 'flag' }));
  const spec = (greet: string) => writeFile(sharedFile(home, 'tools-spec.json'), JSON.stringify({ greet }));
  await spec('Greets someone by name.');
  const hub = await spawnHub(home);
  try {
    await installChanging(hub, home);
    await spec('Greets politely.');
    await hub.call('chg_relist');
    await until(async () => {
      const greet = (await hub.client.listTools()).tools.find(tool => tool.name === 'chg_greet');
      expect(greet?.description).toMatch(/^\[chg\] \[hub: this tool changed/);
    });

    const all = (await hub.call('registry_list')).structuredContent as unknown as Listed;
    const chg = all.servers.find(server => server.name === 'chg');
    expect(chg?.tools).toContain('chg_greet');
    expect(chg?.tools.filter(name => name.includes('.'))).toEqual([]);

    const resource = await hub.client.readResource({ uri: 'hub://servers' });
    const served = JSON.stringify(resource.contents);
    expect(served).toContain('chg_greet');
    expect(served).not.toContain('chg.greet');

    const one = (await hub.call('registry_list', { server: 'chg' })).structuredContent as unknown as Listed & {
      tools: { tool: string; exposedName?: string }[];
    };
    expect(one.tools.find(entry => entry.tool === 'greet')?.exposedName).toBe('chg_greet');
    expect(one.servers[0]?.tools).toContain('chg_greet');
  } finally {
    await hub.close();
  }
}, 120_000);
