// Issue 31 item 5: the dashboard's Charts view, in Chromium: per server, calls, errors and
// p50/p95 by minute (fed by the same call hook as the metrics), per process, CPU and memory from
// /proc while the page is open; each chart an image with a summary and a table beside it; axe
// (WCAG 2.1 AA) at a laptop width and half of it; no secret value on the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { cli } from '../../helpers/cli.js';
import { startDashboard } from '../../helpers/dashboard.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub } from '../../helpers/hub.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SECRET = 'sk-chart-secret-5e6f7a';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

async function audit(page: Page, view: string): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  }).then(result => result.violations)`)) as {
    id: string;
    impact: string;
    help: string;
    nodes: { target: string[] }[];
  }[];
  return violations.map(
    v => `${view}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`,
  );
}

test(
  'Charts: calls, errors and latency per server, CPU and memory per process, accessible',
  { timeout: 150_000 },
  async () => {
    const home = await makeHubHome();
    await putRecords(
      openStore(loadConfig({ HUB_HOME: home }).paths),
      commandRecord('echo', [ECHO], {
        env: { ECHO_TOKEN: SECRET },
        tools: ['echo', 'fail'].map(name => ({ name, description: name, inputSchema: { type: 'object' } })),
      }),
    );
    const hub = await spawnHub(home);
    try {
      const names = (await hub.client.listTools()).tools.map(tool => tool.name);
      const echo = names.find(name => /echo.echo$/.test(name))!;
      const fail = names.find(name => /echo.fail$/.test(name))!;
      for (let i = 0; i < 3; i++) await hub.call(echo, { text: `${SECRET} ${i}` });
      expect((await hub.call(fail, {})).isError).toBe(true);
      await hub.call('start_process', {
        command: process.execPath,
        args: ['-e', 'const kept = []; setInterval(() => kept.push(Buffer.alloc(1 << 16, 1)), 100)'],
        name: 'grower',
      });
      // The shared hub that served the calls serves the dashboard too.
      const ui = await startDashboard(home);
      const found: string[] = [];
      for (const width of [1280, 640]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(width === 1280 ? ui.login : (await cli(home, 'ui', '--no-open')).stdout.trim());
        await page.locator('tr[data-process="grower"]').waitFor({ timeout: 10_000 });
        await page.getByRole('tab', { name: 'Charts' }).click();
        const server = page.locator('[data-chart-server="echo"]');
        await server.waitFor({ timeout: 10_000 });
        // The image says what it shows; the table has every number.
        await expect(
          server.getByRole('img', { name: /echo: 4 calls and 1 errors in the last hour/ }).count(),
        ).resolves.toBe(1);
        await server.getByText('echo by minute, as a table').click();
        const row = server.locator('tbody tr').last();
        await expect(row.locator('td').nth(1).textContent()).resolves.toBe('4');
        await expect(row.locator('td').nth(2).textContent()).resolves.toBe('1');
        await expect(row.locator('td').nth(3).textContent()).resolves.toMatch(/^\d+(\.\d+)? ms$/);
        // Two samples make a CPU line (the first has no interval yet); memory is drawn from the first.
        const grower = page.locator('[data-chart-process="grower"]');
        await grower.locator('path[data-series="cpu"]').waitFor({ timeout: 20_000 });
        await expect(grower.getByRole('img', { name: /grower: memory over time, now \d/ }).count()).resolves.toBe(1);
        await grower.getByText('grower over time, as a table').click();
        await expect(grower.locator('tbody tr').first().locator('td').nth(2).textContent()).resolves.toMatch(/MiB|KiB/);
        found.push(...(await audit(page, `${width}px charts, tables open`)));
        expect(await page.content()).not.toContain(SECRET);
        await context.close();
      }
      expect(found).toEqual([]);
    } finally {
      await hub.close();
    }
  },
);
