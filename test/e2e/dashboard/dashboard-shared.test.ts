// The dashboard served by the shared hub (`hub ui` without --foreground): the same process as the
// clients' sessions, so the page lists them live, `hub status` names it, a second `hub ui` logs
// another browser into the same dashboard, and an open page keeps an idle hub up.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { logIn, rawRequest, startDashboard } from '../../helpers/dashboard.js';
import { makeHubHome } from '../../helpers/home.js';
import { spawnHub } from '../../helpers/hub.js';
import { isAlive } from '../../helpers/processes.js';
import { sharedHubPid } from '../../helpers/shared-hub.js';

const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

const status = async (home: string) =>
  JSON.parse((await cli(home, 'status', '--json')).stdout) as {
    pid?: number;
    dashboard?: string;
    sessions?: { client?: string }[];
  };

test(
  'hub-mcp ui asks the shared hub: the page lists its sessions live; hub-mcp status names it; a second hub-mcp ui logs in again',
  {
    timeout: 90_000,
  },
  async () => {
    const home = await makeHubHome();
    const a = await spawnHub(home, { clientName: 'client-a' });
    try {
      await a.client.listTools();
      await vi.waitFor(async () => expect((await status(home)).sessions).toHaveLength(1), { timeout: 15_000 });
      const ui = await startDashboard(home);
      // hub ui printed the login and left; the shared hub serves the page.
      await vi.waitFor(() => expect(ui.child.exitCode).toBe(0), { timeout: 10_000 });
      const report = await status(home);
      expect(report.dashboard).toBe(ui.base);
      expect(report.pid).toBe(sharedHubPid(home));

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(ui.login);
      await page.getByRole('tab', { name: 'Store' }).click();
      await page.getByText('client-a').waitFor({ timeout: 10_000 });
      // A client that attaches later appears by itself, and goes when it closes.
      const b = await spawnHub(home, { clientName: 'client-b' });
      await b.client.listTools();
      await page.getByText('client-b').waitFor({ timeout: 15_000 });
      await b.close();
      await page.getByText('client-b').waitFor({ state: 'detached', timeout: 15_000 });
      await context.close();

      // A second hub ui: same dashboard, a new one-time login, which works once.
      const again = await cli(home, 'ui', '--no-open');
      expect(again.code).toBe(0);
      const login = again.stdout.trim();
      expect(new URL(login).origin).toBe(ui.base);
      expect(login).not.toBe(ui.login);
      const auth = await logIn(login);
      expect(auth).toBeDefined();
      const state = JSON.parse((await rawRequest(`${ui.base}/api/state`, { headers: auth! })).body) as {
        sessions: { client?: string; transport?: string; cwd?: string }[];
      };
      expect(state.sessions).toEqual([expect.objectContaining({ client: 'client-a', transport: 'socket' })]);
      expect(await logIn(login)).toBeUndefined();
    } finally {
      await a.close();
    }
  },
);

test(
  'an idle shared hub stays up while a dashboard page is open, and exits once it is closed',
  {
    timeout: 60_000,
  },
  async () => {
    const home = await makeHubHome();
    await writeFile(join(home, 'config.json'), JSON.stringify({ sharedHub: { idleMs: 300 } }));
    const ui = await startDashboard(home);
    const pid = sharedHubPid(home)!;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(ui.login);
    await page.getByRole('tab', { name: /Processes/ }).waitFor();
    // Many idle periods pass with no session: the open page holds it.
    await new Promise(resolve => setTimeout(resolve, 2_000));
    expect(isAlive(pid)).toBe(true);
    await context.close();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 15_000, interval: 100 });
  },
);

// Under load a browser took seconds between the login's redirect and its event stream; with no
// viewer and the login used, the hub exited in between and the page never loaded (CI, once).
test('a page between its login and its event stream keeps an idle shared hub up', async () => {
  const home = await makeHubHome();
  await writeFile(join(home, 'config.json'), JSON.stringify({ sharedHub: { idleMs: 300 } }));
  const ui = await startDashboard(home);
  const pid = sharedHubPid(home)!;
  const auth = await logIn(ui.login);
  expect(auth).toBeDefined();
  // Several idle periods with the login used and no event stream open.
  await new Promise(resolve => setTimeout(resolve, 1_500));
  expect(isAlive(pid)).toBe(true);
  const state = await rawRequest(`${ui.base}/api/state`, { headers: auth! });
  expect(state.status).toBe(200);
  // Nobody comes back: the hub goes.
  await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 20_000, interval: 100 });
});
