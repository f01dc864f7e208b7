// Issue 29 item 4, the dashboard's part: a server's sandbox shown and changed on the page, in
// Chromium against `hub ui` (dist/server.js): narrow the network, widen a write grant, see a bad
// grant refused with registry.configure's own message, turn the sandbox off and on; the store and
// the audit log follow. And the route behind it keeps the dashboard's door (auth.ts).
import { readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { loadConfig } from '../../../src/core/config/config.js';
import { openStore } from '../../../src/store/store.js';
import { logIn, rawRequest, startDashboard } from '../../helpers/dashboard.js';
import { makeHubHome, makeScratchDir } from '../../helpers/home.js';
import { commandRecord, ECHO, putRecords } from '../../proxy/harness.js';

const CHROMIUM = process.env.HUB_CHROMIUM ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ECHO_TOOLS = [{ name: 'echo', inputSchema: { type: 'object' as const, properties: {} } }];

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

// Cached tools: opening the details does not start the server.
async function homeWithEcho(): Promise<string> {
  const home = await makeHubHome();
  await putRecords(
    openStore(loadConfig({ HUB_HOME: home }).paths),
    commandRecord('echo', [ECHO], { tools: ECHO_TOOLS }),
  );
  return home;
}

const sandboxOf = (home: string) =>
  (
    JSON.parse(readFileSync(join(home, 'db.json'), 'utf8')) as {
      servers: Record<string, { settings?: { sandbox?: unknown } }>;
    }
  ).servers.echo?.settings?.sandbox;

const auditLines = (home: string): Record<string, unknown>[] => {
  try {
    return readFileSync(join(home, 'audit', 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(line => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
};

async function axe(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(`axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    resultTypes: ['violations'],
  }).then(result => result.violations)`)) as { id: string; help: string; nodes: { target: string[] }[] }[];
  return violations.map(v => `${v.id} ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`);
}

test(
  "a server's sandbox on the page: narrow, widen, a refused grant, off and on; store and audit log",
  { timeout: 120_000 },
  async () => {
    const home = await homeWithEcho();
    const scratch = realpathSync(await makeScratchDir());
    // A symlink in a folder one may grant, pointing into HUB_HOME (db.json holds every secret).
    symlinkSync(home, join(scratch, 'escape'));
    const ui = await startDashboard(home);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(ui.login);
    await page.getByRole('tab', { name: /MCP servers/ }).click();
    const row = page.locator('tr[data-server="echo"]');
    await row.getByRole('button', { name: 'echo' }).click();
    const panel = page.getByRole('region', { name: 'Sandbox' });
    const line = panel.locator('[data-sandbox-line]');
    await line.getByText(/^sandbox: bubblewrap, network all;/).waitFor({ timeout: 15_000 });
    expect(await panel.locator('[data-sandbox-state]').getAttribute('data-sandbox-state')).toBe('on');
    expect(await panel.textContent()).toMatch(/This machine: bubblewrap /);
    expect(await axe(page)).toEqual([]);
    const save = panel.getByRole('button', { name: 'Save sandbox' });
    const alert = page.getByRole('alert');

    // Narrow: no network at all.
    await panel.getByLabel('Network').selectOption('none');
    await save.click();
    await line.getByText(/network none;/).waitFor({ timeout: 10_000 });
    expect(sandboxOf(home)).toEqual({ network: 'none' });

    // Widen: write a folder of the person's, at once (the person at the page is the person).
    await panel.getByLabel(/Also writable/).fill(scratch);
    await save.click();
    await line
      .getByText(`writes its data folder, the folders its args and env name, a private /tmp, ${scratch}`)
      .waitFor({ timeout: 10_000 });
    expect(sandboxOf(home)).toEqual({ network: 'none', write: [scratch] });

    // Bad grants: refused with the message `hub servers configure` gives, naming the field; nothing changes.
    const refusals: [string, RegExp][] = [
      ['/', /Field "sandbox\.write": "\/" is the whole file system/],
      ['notes', /Field "sandbox\.write": "notes" is not an absolute path/],
      [join(scratch, 'gone'), /Field "sandbox\.write": ".*gone" does not exist/],
      [
        join(scratch, 'escape'),
        /Field "sandbox\.write": ".*escape" is in HUB_HOME .*which holds every server's secrets/,
      ],
    ];
    for (const [grant, message] of refusals) {
      await panel.getByLabel(/Also writable/).fill(`${scratch}\n${grant}`);
      await save.click();
      await alert.getByText(message).waitFor({ timeout: 10_000 });
      await page.getByRole('button', { name: 'Dismiss' }).click();
    }
    await panel.getByLabel('Network').selectOption('hosts');
    await panel.getByLabel(/^Hosts/).fill('api.github.com, bad!host');
    await save.click();
    await alert.getByText(/Field "sandbox\.network\.1": give a host name/).waitFor({ timeout: 10_000 });
    expect(sandboxOf(home)).toEqual({ network: 'none', write: [scratch] });

    // Off, with the warning beside the toggle; the list flags it; then on again.
    const toggle = panel.getByLabel(/Run without the sandbox/);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await panel.getByLabel('Network').selectOption('none');
    await panel.getByLabel(/Also writable/).fill(scratch);
    await toggle.check();
    expect(await panel.locator(`[id="${await toggle.getAttribute('aria-describedby')}"]`).textContent()).toMatch(
      /reaches every file you can \(~\/\.ssh/,
    );
    await save.click();
    await line.getByText("sandbox: off (this server's settings)").waitFor({ timeout: 10_000 });
    expect(await panel.locator('[data-sandbox-state]').getAttribute('data-sandbox-state')).toBe('off');
    await row.locator('.badge', { hasText: 'unsandboxed' }).waitFor({ timeout: 10_000 });
    expect(sandboxOf(home)).toEqual({ enabled: false, network: 'none', write: [scratch] });
    await panel.getByLabel(/Run without the sandbox/).uncheck();
    await save.click();
    await line.getByText(/^sandbox: bubblewrap, network none;/).waitFor({ timeout: 10_000 });
    await row.locator('.badge', { hasText: 'unsandboxed' }).waitFor({ state: 'detached', timeout: 10_000 });
    expect(sandboxOf(home)).toEqual({ network: 'none', write: [scratch] });
    await context.close();

    // The audit log: each change by the dashboard, each refused grant with its message (a malformed
    // host is refused by the request schema before any change, as registry.configure does), each
    // widening named.
    await vi.waitFor(
      () => {
        const lines = auditLines(home).filter(entry => entry.server === 'echo' && entry.by === 'dashboard');
        const configured = lines.filter(entry => entry.kind === 'configure');
        expect(configured.filter(entry => entry.outcome === 'ok')).toHaveLength(4);
        expect(configured.every(entry => JSON.stringify(entry.changed) === '["sandbox"]')).toBe(true);
        expect(configured.filter(entry => entry.outcome === 'error').map(entry => entry.error)).toEqual([
          expect.stringMatching(/"\/" is the whole file system/),
          expect.stringMatching(/"notes" is not an absolute path/),
          expect.stringMatching(/does not exist/),
          expect.stringMatching(/is in HUB_HOME/),
        ]);
        expect(lines.filter(entry => entry.kind === 'decision').map(entry => [entry.question, entry.answer])).toEqual([
          [`Widen "echo": let it write ${scratch}`, 'approved'],
          ['Widen "echo": run it without its sandbox (it reaches every file you can)', 'approved'],
        ]);
      },
      { timeout: 10_000, interval: 200 },
    );
  },
);

test(
  "the sandbox route keeps the dashboard's door: no key, a forged key, a foreign Origin",
  { timeout: 60_000 },
  async () => {
    const home = await homeWithEcho();
    const ui = await startDashboard(home);
    const url = `${ui.base}/api/servers/echo/configure`;
    const body = JSON.stringify({ sandbox: { network: 'host' } });
    const json = { 'content-type': 'application/json', origin: ui.base };
    expect((await rawRequest(`${ui.base}/api/servers/echo`)).status).toBe(401);
    expect((await rawRequest(url, { method: 'POST', headers: json, body })).status).toBe(401);
    const forged = { ...json, authorization: 'Bearer forged' };
    expect((await rawRequest(url, { method: 'POST', headers: forged, body })).status).toBe(401);
    const auth = (await logIn(ui.login))!;
    const foreign = { ...json, ...auth, origin: 'http://127.0.0.1:1' };
    expect((await rawRequest(url, { method: 'POST', headers: foreign, body })).status).toBe(403);
    const noOrigin = { 'content-type': 'application/json', ...auth };
    expect((await rawRequest(url, { method: 'POST', headers: noOrigin, body })).status).toBe(403);
    expect(sandboxOf(home)).toBeUndefined();

    // With the key and this page's Origin: the view, a refusal naming the field, then the change.
    const view = await rawRequest(`${ui.base}/api/servers/echo`, { headers: auth });
    expect(JSON.parse(view.body).sandbox).toMatchObject({ applies: true, settings: { network: 'all', enabled: true } });
    const bad = await rawRequest(url, {
      method: 'POST',
      headers: { ...json, ...auth },
      body: JSON.stringify({ sandbox: { read: ['/'] } }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/^Field "sandbox\.read": "\/" is the whole file system/);
    const done = await rawRequest(url, { method: 'POST', headers: { ...json, ...auth }, body });
    expect(done.status, done.body).toBe(200);
    expect(JSON.parse(done.body).sandbox).toMatchObject({ mode: 'bubblewrap', network: 'host' });
    expect(sandboxOf(home)).toEqual({ network: 'host' });
  },
);
