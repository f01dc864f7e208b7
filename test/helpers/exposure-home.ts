// A HUB_HOME for the exposure tests: the 15 real tool lists (test/fixtures/tool-lists/, cached,
// never started: their command would leave a marker file) plus the echo fixture server, which is
// real and answers calls.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config/config.js';
import { openStore } from '../../src/store/store.js';
import { commandRecord, ECHO, putRecords } from '../proxy/harness.js';
import { makeHubHome } from './home.js';
import { toolListRecords } from './tool-lists.js';

export const echoTools = [
  {
    name: 'echo',
    description: 'Echoes text.',
    inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } },
  },
  { name: 'pid', description: 'Returns the server pid.', inputSchema: { type: 'object' as const } },
];

/** A home with the 15 real tool lists (a start would write started-<name>) and the echo server. */
export async function seededHome(): Promise<{ home: string; proxied: number }> {
  const home = await makeHubHome();
  const marker = (name: string) => [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(join(home, `started-${name}`))}, '')`,
  ];
  const records = toolListRecords().map(record => ({ ...record, args: marker(record.name) }));
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    ...records,
    commandRecord('echo', [ECHO], { tools: echoTools, order: 100 }),
  );
  return { home, proxied: records.reduce((sum, record) => sum + record.tools.length, 0) + echoTools.length };
}

/** The cached servers that were started (none should be: listing and searching start nothing). */
export const started = (home: string): string[] => readdirSync(home).filter(file => file.startsWith('started-'));
