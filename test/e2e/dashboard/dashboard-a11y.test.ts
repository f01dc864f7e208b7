// The dashboard's accessibility, checked rather than claimed: axe-core (the engine behind
// Lighthouse's and the browser devtools' audits) run in Chromium over every view a person
// reaches (each tab, an open log with its search, a terminal screen, a server's details, the
// start and install forms), at a laptop width and half of it, for WCAG 2.1 A and AA.
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

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

/** axe's WCAG 2.1 A/AA violations on the page as it is now, one line each. */
async function audit(page: Page, view: string): Promise<string[]> {
  // page.evaluate runs through the DevTools protocol: the page's CSP (script-src 'self') stays on.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  }).then(result => result.violations)`)) as Violation[];
  return violations.map(
    v => `${view}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`,
  );
}

test('every view passes axe (WCAG 2.1 AA) at a laptop width and at half of it', { timeout: 120_000 }, async () => {
  const home = await makeHubHome();
  await putRecords(openStore(loadConfig({ HUB_HOME: home }).paths), commandRecord('echo', [ECHO]));
  const hub = await spawnHub(home);
  try {
    await hub.call('start_process', {
      command: process.execPath,
      args: ['-e', "setInterval(() => console.log('\\u001b[32mok\\u001b[0m tick'), 300)"],
      name: 'ticker',
    });
    await hub.call('start_process', { command: "printf 'screen text\\n'; sleep 60", name: 'term', tty: true });
    const ui = await startDashboard(home);
    const found: string[] = [];
    for (const width of [1280, 640]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // A login is good once: the second browser gets its own, as a person running hub ui again.
      await page.goto(width === 1280 ? ui.login : (await cli(home, 'ui', '--no-open')).stdout.trim());
      await page.locator(`tr[data-process="ticker"]`).waitFor({ timeout: 10_000 });
      found.push(...(await audit(page, `${width}px processes`)));
      await page.getByText('Start a process').click();
      await page.getByRole('button', { name: 'Show the log of ticker' }).click();
      await page.getByRole('log').getByText('tick').first().waitFor({ timeout: 5_000 });
      found.push(...(await audit(page, `${width}px processes, log and start form open`)));
      await page.getByRole('button', { name: 'Show the log of term' }).click();
      await page.getByLabel('Terminal screen').getByText('screen text').waitFor({ timeout: 5_000 });
      found.push(...(await audit(page, `${width}px terminal screen`)));

      await page.getByRole('tab', { name: /MCP servers/ }).click();
      await page.locator('tr[data-server="echo"]').waitFor({ timeout: 10_000 });
      await page.getByText('Find and install a server').click();
      await page.locator('tr[data-server="echo"] button[aria-expanded]').click();
      found.push(...(await audit(page, `${width}px servers, details and install form open`)));

      await page.getByRole('tab', { name: /Store/ }).click();
      await page.locator('[data-lock]').waitFor();
      found.push(...(await audit(page, `${width}px store`)));
      await context.close();
    }
    expect(found).toEqual([]);
  } finally {
    await hub.close();
  }
});
