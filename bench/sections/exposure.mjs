import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildRoutes } from '../../dist/proxy/listing/routes.js';
import { buildToolIndex } from '../../dist/proxy/exposure/tool-search.js';
import { tempHome } from '../lib/cleanup.mjs';
import { addServers } from '../lib/home.mjs';
import { connectStdio, HUB_JS } from '../lib/mcp.mjs';
import { median, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// Issue 14, items 2 and 6: tools.search's quality on the real tools/list of 15 published servers
// (test/fixtures/tool-lists/) and 74 labelled queries, its speed over 1,000 tools, and what
// tools/list costs each client in each exposure mode with those 15 servers installed.

const LISTS = fileURLToPath(new URL('../../test/fixtures/tool-lists/', import.meta.url));
// What a client sees is tokens; ~4 bytes of JSON per token (OpenAI's and Anthropic's rule of thumb).
const tokens = bytes => Math.round(bytes / 4);

const toolLists = () =>
  readdirSync(LISTS)
    .filter(file => file.endsWith('.json') && file !== 'queries.json')
    .sort()
    .map(file => JSON.parse(readFileSync(`${LISTS}${file}`, 'utf8')));

const records = (lists, copy = 0) =>
  lists.map((list, index) => ({
    name: copy === 0 ? list.server : `${list.server}-${copy}`,
    command: process.execPath,
    args: ['-e', 'process.exit(1)'],
    env: {},
    mode: 'command',
    installedAt: new Date(0).toISOString(),
    order: copy * 100 + index + 1,
    autoStart: false,
    tools: list.tools,
    toolsUpdatedAt: new Date(0).toISOString(),
  }));

function quality(lists) {
  const table = buildRoutes(records(lists));
  const index = buildToolIndex(table.routes);
  const queries = JSON.parse(readFileSync(`${LISTS}queries.json`, 'utf8'));
  let at1 = 0;
  let at5 = 0;
  const misses = [];
  for (const { query, expect } of queries) {
    const hits = index.search(query, { limit: 5 }).map(hit => `${hit.route.server}/${hit.route.tool}`);
    if (expect.includes(hits[0])) at1 += 1;
    if (hits.some(hit => expect.includes(hit))) at5 += 1;
    else misses.push(query);
  }
  return {
    queries: queries.length,
    tools: table.routes.length,
    at1: at1 / queries.length,
    at5: at5 / queries.length,
    misses,
  };
}

function speed(lists, quick, smoke) {
  // ~1,000 tools: the 15 lists installed six times under other names.
  const all = Array.from({ length: 6 }, (_, copy) => records(lists, copy)).flat();
  const built = performance.now();
  const table = buildRoutes(all);
  const index = buildToolIndex(table.routes);
  const buildMs = performance.now() - built;
  const queries = JSON.parse(readFileSync(`${LISTS}queries.json`, 'utf8')).map(entry => entry.query);
  const samples = [];
  const rounds = smoke ? 1 : quick ? 2 : 20;
  for (let i = 0; i < rounds; i++)
    for (const query of queries) {
      const start = performance.now();
      index.search(query, { limit: 5 });
      samples.push(performance.now() - start);
    }
  samples.sort((a, b) => a - b);
  return { tools: table.routes.length, buildMs, p50: median(samples), p99: samples[Math.floor(samples.length * 0.99)] };
}

const bytesOf = value => Buffer.byteLength(JSON.stringify(value));
// hub's own tools as the issue counts them: names, titles, descriptions and input schemas.
const coreBytes = tools =>
  bytesOf(tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })));

const CLIENTS = [
  ['Claude Code', 'claude-code', Infinity],
  ['Cursor', 'cursor-vscode', 40],
  ['VS Code', 'Visual Studio Code', 128],
  ['unknown client', 'some-agent', 40],
];

// Each listing is an entry of home's one shared hub, as clients run hub: the first (mode all)
// starts it with HUB_EXPOSURE=all in its environment, which no later session may inherit.
async function listAs(home, clientName, mode) {
  const env = { HUB_HOME: home, ...(mode !== 'auto' && { HUB_EXPOSURE: mode }) };
  const hub = await connectStdio({ args: [HUB_JS], env, name: clientName });
  try {
    const { tools } = await hub.client.listTools();
    const result = await hub.client.callTool({ name: 'tools_search', arguments: { query: 'open a pull request' } });
    return { tools, searchResult: result.isError ? undefined : bytesOf(result) };
  } finally {
    await hub.close();
  }
}

export async function exposureSection({ quick, smoke, log }) {
  const lists = toolLists();
  const rows = [];
  const q = quality(lists);
  log(`  ${q.queries} labelled queries over ${q.tools} tools of ${lists.length} servers`);
  rows.push(
    row('exposure', `tools.search recall@1 (${q.queries} queries, ${q.tools} real tools)`, round(q.at1, 3), undefined, {
      text: '(no target)',
    }),
    row(
      'exposure',
      'tools.search recall@5',
      round(q.at5, 3),
      undefined,
      { text: '≥ 0.9', atLeast: 0.9 },
      q.misses.length ? `missed: ${q.misses.join('; ')}` : undefined,
    ),
  );
  const s = speed(lists, quick, smoke);
  rows.push(
    row(
      'exposure',
      `tools.search p50 over ${s.tools} tools (ms, in process)`,
      round(s.p50, 3),
      { label: 'p99', value: round(s.p99, 3) },
      { text: '< 5 ms', below: 5 },
    ),
    row(
      'exposure',
      `tools.search index build, ${s.tools} tools (ms, once per change of the installed servers)`,
      round(s.buildMs, 1),
    ),
  );

  // hub alone: its own tools.
  const empty = await tempHome();
  const alone = await connectStdio({ args: [HUB_JS], env: { HUB_HOME: empty }, name: 'some-agent' });
  const own = (await alone.client.listTools()).tools;
  await alone.close();

  const home = await tempHome();
  await addServers(home, records(lists));
  const wide = await tempHome();
  await addServers(wide, Array.from({ length: 4 }, (_, copy) => records(lists, copy)).flat());
  const proxied = lists.reduce((sum, list) => sum + list.tools.length, 0);
  const section = {
    status: 'ok',
    servers: lists.map(list => `${list.package}@${list.version}`),
    quality: q,
    speed: s,
    lists: {},
  };
  let ownWithSearch;
  let searchResultBytes;
  for (const [label, clientName, budget] of CLIENTS) {
    for (const mode of ['all', 'search', 'auto']) {
      const { tools, searchResult } = await listAs(home, clientName, mode);
      const bytes = bytesOf({ tools });
      section.lists[`${label} ${mode}`] = { tools: tools.length, bytes };
      searchResultBytes ??= searchResult;
      if (mode === 'search') ownWithSearch ??= tools;
      rows.push(
        row(
          'exposure',
          `${label}, ${mode}${mode === 'auto' ? ' (default)' : ' (HUB_EXPOSURE)'}, ${lists.length} servers (${proxied} tools): tools/list tools · KB · ~tokens`,
          `${tools.length} · ${round(bytes / 1024, 1)} · ${tokens(bytes)}`,
        ),
      );
      if (mode === 'auto' && budget !== Infinity)
        rows.push(
          row('exposure', `${label}, auto: tools listed (budget ${budget})`, tools.length, undefined, {
            text: `≤ ${budget}`,
            below: budget + 1,
          }),
        );
    }
  }
  const ownBytes = bytesOf({ tools: own });
  const searchAdds = bytesOf({ tools: ownWithSearch }) - ownBytes;
  // The same with 60 servers (the 15 installed four times): what search adds stays bounded.
  const wideSearch = (await listAs(wide, 'claude-code', 'search')).tools;
  const wideAdds = bytesOf({ tools: wideSearch }) - ownBytes;
  // tools.search as hub defines it; the installed servers' summary in its description is what the
  // search-mode rows above count.
  const searchTool = ownWithSearch.find(tool => tool.name === 'tools_search');
  const searchBase = { ...searchTool, description: searchTool.description.replace(/ Installed: .*$/s, '') };
  rows.push(
    row(
      'exposure',
      `search mode: bytes hub adds beyond its own tools, ${lists.length} servers`,
      searchAdds,
      undefined,
      { text: '< 4 KB', below: 4096 },
    ),
    row(
      'exposure',
      `search mode: bytes hub adds beyond its own tools, ${lists.length * 4} servers`,
      wideAdds,
      undefined,
      { text: '< 4 KB', below: 4096 },
    ),
    row(
      'exposure',
      `hub's own tools with tools.search: names, titles, descriptions, input schemas (bytes)`,
      coreBytes([...own, searchBase]),
      undefined,
      { text: '< 12 KB', below: 12 * 1024 },
    ),
    row(
      'exposure',
      `hub's own tools: whole tools/list entries with output schemas (bytes, ~tokens ${tokens(ownBytes)})`,
      ownBytes,
    ),
    row('exposure', 'tools.search result, 5 results (bytes)', searchResultBytes ?? null),
  );
  Object.assign(section, { ownBytes, searchAdds, wideAdds, searchResultBytes });
  return { section, rows };
}
