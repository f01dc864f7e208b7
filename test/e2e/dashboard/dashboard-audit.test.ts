// Issue 31 item 2: the audit log in the dashboard, in Chromium: `hub audit`'s filters, the lines,
// the JSON-lines download, and axe (WCAG 2.1 AA) over the view, as dashboard-a11y.test.ts does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { startDashboard } from '../../helpers/dashboard.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub, textOf } from '../../helpers/hub.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SECRET = 'sk-audit-view-secret-4242';
const ECHO_TOOLS = ['echo'].map(name => ({ name, inputSchema: { type: 'object' as const, properties: {} } }));

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  }).then(result => result.violations)`)) as { id: string; help: string; nodes: { target: string[] }[] }[];
  return violations.map(v => `${v.id} ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
}

test('the audit view: lines, filters, the JSON-lines download, no secret, and axe', { timeout: 120_000 }, async () => {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { env: { ECHO_TOKEN: SECRET }, tools: ECHO_TOOLS }),
  );
  const hub = await spawnHub(home, { clientName: 'view-client' });
  try {
    const echoed = await hub.call('echo_echo', { text: `with ${SECRET}` });
    expect(echoed.isError, textOf(echoed)).toBeFalsy();
    expect((await hub.call('start_process', { command: 'sleep 30', name: 'sleeper' })).isError).toBeFalsy();
    const ui = await startDashboard(home);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(ui.login);
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.locator('tr[data-kind="call"][data-server="echo"]').waitFor({ timeout: 15_000 });
    await page.locator('tr[data-kind="process"]').first().waitFor({ timeout: 15_000 });
    expect(await axe(page)).toEqual([]);
    expect(await page.content()).not.toContain(SECRET);

    await page.getByLabel('Server').fill('echo');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator('tr[data-kind="process"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.locator('tbody tr').count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON lines' }).click(),
    ]);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map(line => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ kind: 'call', server: 'echo', tool: 'echo' })]);
    expect(text).not.toContain(SECRET);

    await page.getByLabel('Since').fill('not a time');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page
      .getByRole('alert')
      .getByText(/"not a time" is not a time/)
      .waitFor({ timeout: 10_000 });
    await context.close();
  } finally {
    await hub.close();
  }
});
