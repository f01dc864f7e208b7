// The dashboard in a real browser: Debian's Chromium driven headless by playwright-core, against
// `hub ui` (dist/server.js) and a stdio hub (SDK Client) sharing one HUB_HOME. Screenshots go to
// test-results/dashboard/ (git-ignored).
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startDashboard } from '../../helpers/dashboard.js';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, spawnHub, type HubSession } from '../../helpers/hub.js';
import { fakeNpm } from '../../helpers/install.js';
import { groupMembers } from '../../helpers/processes.js';
import { startRegistryServer } from '../../helpers/registry-server.js';

const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = 'test-results/dashboard';
const SECRET = 'sk-browser-secret-7373';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const listed = async (hub: HubSession) =>
  (await hub.call('list_processes', {})).structuredContent as {
    processes: { name?: string; status: string; restarts?: number; pid: number }[];
  };

let browser: Browser;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(login: string, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(login);
  return page;
}

describe('dashboard in Chromium', () => {
  test('processes: appear live, log lines stream, kill and restart with the buttons', { timeout: 90_000 }, async () => {
    const home = await makeHubHome();
    const hub = await spawnHub(home);
    try {
      const ui = await startDashboard(home);
      const page = await openPage(ui.login);
      await expect.poll(() => page.url()).toBe(`${ui.base}/#processes`);
      await page.getByRole('tab', { name: /Processes/ }).waitFor();
      // The list arrives after the tab renders: wait for it, do not count at once.
      await page.getByText('No processes').waitFor({ timeout: 10_000 });

      // Started through MCP by another hub: the page learns of it by itself.
      const port = await freePort();
      await hub.call('start_process', {
        command: process.execPath,
        args: [fixture('process-http-server.mjs'), String(port)],
        name: 'web',
        ports: [port],
        env: { API_TOKEN: SECRET },
        wait_for: { pattern: 'listening' },
      });
      await hub.call('start_process', {
        command: process.execPath,
        args: ['-e', "setInterval(() => console.log('\\u001b[31mred alert\\u001b[0m plain'), 300)"],
        name: 'colours',
      });
      const web = page.locator('tr[data-process="web"]');
      await web.waitFor({ timeout: 5_000 });
      await expect.poll(() => web.locator('a').getAttribute('href')).toBe(`http://localhost:${port}`);

      // Its log, then a line caused now arrives live.
      await page.getByRole('button', { name: 'Show the log of web' }).click();
      const log = page.getByRole('log');
      await log.getByText(`listening on ${port}`).waitFor({ timeout: 5_000 });
      await fetch(`http://127.0.0.1:${port}/arrives-live`);
      await log.getByText('request /arrives-live').waitFor({ timeout: 3_000 });
      // Search filters the lines; Pause stops following.
      await page.getByLabel('Search').fill('arrives-live');
      await expect.poll(() => log.locator('.line').count()).toBe(1);
      await page.getByLabel('Search').fill('');
      await page.screenshot({ path: `${SHOTS}/processes.png` });

      // ANSI colours are rendered, not printed.
      await page.getByRole('button', { name: 'Show the log of colours' }).click();
      await page.locator('.lines span.fg-red', { hasText: 'red alert' }).first().waitFor({ timeout: 5_000 });
      expect(await page.getByRole('log').textContent()).not.toContain('[31m');

      // Kill with the button: the process group is gone, the row says so.
      const webPid = (await listed(hub)).processes.find(view => view.name === 'web')!.pid;
      await page.getByRole('button', { name: 'Kill web' }).click();
      await web.locator('.badge', { hasText: 'killed' }).waitFor({ timeout: 10_000 });
      expect((await listed(hub)).processes.find(view => view.name === 'web')?.status).toBe('killed');
      expect(groupMembers(webPid)).toEqual([]);

      // Restart another with its button: a new run under the same record.
      await page.getByRole('button', { name: 'Restart colours' }).click();
      await vi.waitFor(
        async () => expect((await listed(hub)).processes.find(view => view.name === 'colours')?.restarts).toBe(1),
        { timeout: 10_000, interval: 100 },
      );
      await page.locator('tr[data-process="colours"] td:nth-child(5)', { hasText: '1' }).waitFor({ timeout: 5_000 });
      // The open log follows the new run (same record, same log, the cursor carries on).
      const marker = page.getByRole('log').getByText(/hub: restart 1/);
      await marker.waitFor({ timeout: 5_000 });
      await page
        .getByRole('log')
        .locator('.line:below(:text("hub: restart 1"))', { hasText: 'red alert' })
        .first()
        .waitFor({ timeout: 5_000 });

      // Remove the killed one.
      await page.getByRole('button', { name: 'Remove web' }).click();
      await web.waitFor({ state: 'detached', timeout: 5_000 });

      expect(await page.content()).not.toContain(SECRET);
      // Half a laptop screen: still usable, nothing off to the side but the table's own scroll.
      await page.setViewportSize({ width: 640, height: 800 });
      await page.screenshot({ path: `${SHOTS}/processes-narrow.png` });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(640);
      // Keyboard: the tabs move with the arrow keys.
      await page.getByRole('tab', { name: /Processes/ }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.url()).toBe(`${ui.base}/#servers`);
    } finally {
      await hub.close();
    }
  });

  test('the start form: command, cwd, env and tty; the screen of a terminal process', { timeout: 60_000 }, async () => {
    const home = await makeHubHome();
    // hub ui --foreground: served by its own process, with no shared hub.
    const ui = await startDashboard(home, {}, { foreground: true });
    const page = await openPage(ui.login);
    await page.getByText('Start a process').click();
    await page
      .getByLabel('Command')
      .fill(`printf '\\033[1mhello from %s\\033[0m\\n' "$GREETING"; sleep 1; printf 'ready> '; sleep 30`);
    await page.getByLabel('Name').fill('term');
    await page.getByLabel('Working directory').fill(home);
    await page.getByLabel(/Environment/).fill(`GREETING=tty\nAPI_KEY=${SECRET}`);
    await page.getByLabel(/Run in a terminal/).check();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.locator('tr[data-process="term"] .badge', { hasText: 'running' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Show the log of term' }).click();
    // A tty process: its current screen (get_process_screen), as well as its log.
    await page.getByLabel('Terminal screen').getByText('hello from tty').waitFor({ timeout: 5_000 });
    await page.locator('.lines span.bold', { hasText: 'hello from tty' }).waitFor();
    // A prompt written later, with no newline, adds no log line: the screen still shows it.
    await page.getByLabel('Terminal screen').getByText('ready>').waitFor({ timeout: 10_000 });
    expect(await page.content()).not.toContain(SECRET);
  });

  test(
    'typing into a running process: a line into node -i answers 42, Ctrl-D ends it',
    { timeout: 90_000 },
    async () => {
      const home = await makeHubHome();
      const ui = await startDashboard(home, {}, { foreground: true });
      const page = await openPage(ui.login);
      await page.getByText('Start a process').click();
      await page.getByLabel('Command').fill('node -i');
      await page.getByLabel('Name').fill('repl');
      await page.getByLabel(/Run in a terminal/).check();
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await page.getByRole('button', { name: 'Show the log of repl' }).click();
      // Its prompt has no newline: the screen shows it because it is read again on every log event.
      await page.getByLabel('Terminal screen').getByText('> ').first().waitFor({ timeout: 30_000 });
      await page.getByLabel('Input to repl').fill('6*7');
      await page.getByRole('button', { name: 'Send line' }).click();
      await page.getByRole('log').getByText(/^42$/).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Press Ctrl-D' }).click();
      await page.locator('tr[data-process="repl"] .badge', { hasText: 'exited' }).waitFor({ timeout: 20_000 });
      // Ended: nothing to type into any more.
      await page.getByLabel('Input to repl').waitFor({ state: 'detached' });
    },
  );

  test(
    'servers: search, install with consent, call count, details, filter, uninstall; store health',
    { timeout: 90_000 },
    async () => {
      const home = await makeHubHome();
      const npm = fakeNpm(home);
      const registry = await startRegistryServer();
      // The stdio entry starts the shared hub that serves the dashboard: it has the registries.
      const env = { ...npm.env, HUB_REGISTRY_URL: registry.registryUrl, HUB_NPM_REGISTRY: registry.npmRegistry };
      const hub = await spawnHub(home, { env });
      try {
        await hub.client.listTools();
        const ui = await startDashboard(home, env);
        const page = await openPage(ui.login);
        await page.getByRole('tab', { name: /MCP servers/ }).click();
        await page.getByText('Find and install a server').click();
        // registry.search's sources (here a local official registry and npm), as the tool sees them.
        await page.getByLabel('Search registries').fill('memory');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page
          .getByRole('button', { name: 'Install @modelcontextprotocol/server-memory' })
          .waitFor({ timeout: 10_000 });

        await page.getByLabel('npm package').fill('some-server');
        await page.getByRole('button', { name: 'Install', exact: true }).click();
        // The same consent as registry.install: the exact plan, approved by the person.
        const consent = page.getByRole('alertdialog', { name: 'Approve install' });
        await consent.waitFor({ timeout: 10_000 });
        expect(await consent.textContent()).toContain('Install the npm package "some-server"');
        await consent.getByRole('button', { name: 'Approve' }).click();
        await page.getByText(/Installed some .*ready, \d+ tools/).waitFor({ timeout: 30_000 });
        const row = page.locator('tr[data-server="some"]');
        await row.waitFor();
        expect(await row.locator('td[data-calls]').textContent()).toBe('0');

        // A call through the stdio hub: its count reaches the page (HUB_HOME/state, every hub's).
        const called = await hub.call('registry.call', { server: 'some', tool: 'echo', arguments: { message: 'hi' } });
        expect(called.isError).toBeFalsy();
        await row.locator('td[data-calls]', { hasText: '1' }).waitFor({ timeout: 5_000 });
        await row.locator('td:nth-child(8)', { hasText: / ms$/ }).waitFor({ timeout: 5_000 });

        // Details: tools with their schemas, the stderr log.
        await row.getByRole('button', { name: 'some' }).click();
        await page.getByRole('heading', { name: /^Tools \(/ }).waitFor({ timeout: 10_000 });
        await page.locator('ul.tools code', { hasText: 'echo' }).first().waitFor();
        await page.screenshot({ path: `${SHOTS}/servers.png` });

        // Disable and enable with the button, as hub servers disable/enable do.
        await row.getByRole('button', { name: 'Disable' }).click();
        await row.locator('.badge', { hasText: 'disabled' }).waitFor({ timeout: 5_000 });
        await row.getByRole('button', { name: 'Enable' }).click();
        await row.locator('.badge', { hasText: 'disabled' }).waitFor({ state: 'detached', timeout: 5_000 });

        // Deny a tool: the server lists one tool fewer (registry.configure's filter).
        const tools = Number(await row.locator('td:nth-child(5)').textContent());
        await page.getByLabel('Deny tools').fill('echo');
        await page.getByRole('button', { name: 'Save filter' }).click();
        await row.locator('td:nth-child(5)', { hasText: String(tools - 1) }).waitFor({ timeout: 5_000 });

        // Uninstall, after the browser's confirmation.
        page.once('dialog', dialog => void dialog.accept());
        await row.getByRole('button', { name: 'Uninstall' }).click();
        await row.waitFor({ state: 'detached', timeout: 10_000 });
        expect(Object.keys(JSON.parse(await readFile(join(home, 'db.json'), 'utf8')).servers)).toEqual([]);

        await page.getByRole('tab', { name: /Store/ }).click();
        await page.getByText(`${home}/db.json`).waitFor();
        // The shared hub serving the page made the install's changes: its lock takes are counted.
        expect(await page.locator('[data-lock]').textContent()).toMatch(
          /\d+ of [1-9]\d* changes waited for another hub/,
        );
        await page.screenshot({ path: `${SHOTS}/store.png` });
      } finally {
        await hub.close();
        await registry.close();
      }
    },
  );
});
