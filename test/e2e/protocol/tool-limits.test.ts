// Issue 27 item 11: hub's per-tool caps fit what published servers list. A real SDK child
// (test/fixtures/big-schema-server.mjs) lists a tool with an ~80 KB outputSchema, as Brave's
// official server does (brave_place_search: 71 KB; hub skipped it at 64 KB), one with an ~400 KB
// outputSchema and one with an ~100 KB inputSchema. Through the built server: the first is listed
// whole and callable; the second is listed and callable without its outputSchema, and toolIssues
// says so; the third is still refused, with a toolIssue naming its size and the limit.
import { expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, textOf } from '../../helpers/hub.js';

type Issue = { tool: string; action: string; reason: string };

test("Brave's size of outputSchema fits; one over the cap is kept without it; an oversize inputSchema is refused", async () => {
  const home = await makeHubHome();
  const hub = await spawnHub(home, { clientName: 'claude-code' });
  try {
    const installed = await hub.call('registry_install', {
      command: process.execPath,
      args: [fixture('big-schema-server.mjs')],
      name: 'big',
    });
    expect(installed.isError, textOf(installed)).toBeFalsy();

    const tools = (await hub.client.listTools()).tools;
    const names = tools.map(tool => tool.name);
    expect(names).toEqual(expect.arrayContaining(['big_place_search', 'big_giant_output', 'big_small']));
    expect(names).not.toContain('big_huge_input');
    const place = tools.find(tool => tool.name === 'big_place_search');
    expect(JSON.stringify(place?.outputSchema).length).toBeGreaterThan(80_000);
    const giant = tools.find(tool => tool.name === 'big_giant_output');
    expect(giant?.outputSchema).toBeUndefined();

    // The client checks the result against the 80 KB schema it was listed.
    const called = await hub.call('big_place_search', { query: 'tea' });
    expect(called.isError, textOf(called)).toBeFalsy();
    expect(called.structuredContent).toEqual({ results: [{ name: 'tea cafe', place_0: 'open' }] });
    const giantCalled = await hub.call('big_giant_output');
    expect(giantCalled.isError, textOf(giantCalled)).toBeFalsy();
    expect(giantCalled.structuredContent).toEqual({ rows: [] });

    const listed = await hub.call('registry_list', { server: 'big' });
    const issues = (listed.structuredContent as { toolIssues?: Issue[] }).toolIssues ?? [];
    expect(issues).toEqual([
      {
        tool: 'giant_output',
        action: 'trimmed',
        reason: expect.stringMatching(
          /^outputSchema left out: it is \d{6} bytes, over hub's limit of 262144 bytes per tool; the tool works/,
        ),
      },
      {
        tool: 'huge_input',
        action: 'skipped',
        reason: expect.stringMatching(/^its inputSchema is \d{6} bytes, over hub's limit of 65536 bytes per tool$/),
      },
    ]);
    expect(textOf(listed)).toContain('! trimmed giant_output: outputSchema left out');
  } finally {
    await hub.close();
  }
}, 60_000);
