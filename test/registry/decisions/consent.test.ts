// Consent through a real SDK client: a cancelled or failed prompt is not a refusal, and the
// error names the ways out; a decline stays CONSENT_DECLINED. Command mode: no npm involved.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { fixture, startHubInProcess, textOf } from '../../helpers/hub.js';

const register = { command: process.execPath, args: [fixture('echo-server.mjs')], name: 'echo', start: false };

async function servers(home: string): Promise<Record<string, unknown>> {
  const db = join(home, 'db.json');
  return existsSync(db) ? JSON.parse(await readFile(db, 'utf8')).servers : {};
}

describe('registry.install consent through a real client', () => {
  test('a cancelled prompt (claude -p) is CONSENT_UNAVAILABLE and names hub-mcp install and install.confirm', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home, { capabilities: { elicitation: {} } });
    try {
      hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'cancel' }));
      const result = await hub.call('registry.install', register);
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/^CONSENT_UNAVAILABLE: .*cancelled without an answer/);
      expect(text).toContain(`"install": { "confirm": "never" } in ${join(home, 'config.json')}`);
      const npmResult = await hub.call('registry.install', { package: 'some-server@1.0.0' });
      expect(textOf(npmResult)).toMatch(
        /^CONSENT_UNAVAILABLE: .*run `hub-mcp install some-server@1\.0\.0` in a terminal/,
      );
    } finally {
      await hub.close();
    }
    expect(await servers(home)).toEqual({});
  });

  test('a client that advertises elicitation with no handler (-32601) is CONSENT_UNAVAILABLE, not a refusal', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home, { capabilities: { elicitation: {} } });
    try {
      const result = await hub.call('registry.install', register);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^CONSENT_UNAVAILABLE: .*asking failed \(.*-32601.*\), so you were never asked/);
      expect(textOf(result)).toContain('"confirm": "never"');
    } finally {
      await hub.close();
    }
    expect(await servers(home)).toEqual({});
  });

  test('a declined prompt stays CONSENT_DECLINED and an accepted one registers the server', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home, { capabilities: { elicitation: {} } });
    let answer: 'decline' | 'accept' = 'decline';
    try {
      hub.client.setRequestHandler(ElicitRequestSchema, () =>
        answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' },
      );
      const declined = await hub.call('registry.install', register);
      // Back at once: too fast for a person, so it may not be the user's; the setting is named.
      expect(textOf(declined)).toMatch(
        /^CONSENT_DECLINED: .*was declined; nothing was installed\. The decline came back after \d+ ms, too fast for a person/,
      );
      expect(textOf(declined)).toContain(`set "install": { "confirm": "never" } in ${join(home, 'config.json')}`);
      expect(textOf(declined)).toContain('Do not retry as is: ask the user.');
      expect(await servers(home)).toEqual({});
      answer = 'accept';
      const accepted = await hub.call('registry.install', register);
      expect(accepted.isError, textOf(accepted)).toBeFalsy();
      expect(Object.keys(await servers(home))).toEqual(['echo']);
    } finally {
      await hub.close();
    }
  });
});

describe('a decline where no person may have answered (issue 27)', () => {
  test('codex-mcp-client declining a package install: said so, with `hub-mcp install` and the setting', async () => {
    const home = await makeHubHome();
    const hub = await startHubInProcess(home, { clientName: 'codex-mcp-client', capabilities: { elicitation: {} } });
    try {
      hub.client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
      const text = textOf(await hub.call('registry.install', { package: 'some-server@1.0.0' }));
      expect(text).toMatch(/^CONSENT_DECLINED: Install of "some-server@1\.0\.0" was declined; nothing was installed\./);
      expect(text).toContain('codex-mcp-client may have declined without showing anyone the question');
      expect(text).toContain(
        'If they want it, run `hub-mcp install some-server@1.0.0` in a terminal (typing it is the approval)',
      );
      expect(text).toContain('"install": { "confirm": "never" }');
      expect(text).toContain('applies it within a second, no restart');
    } finally {
      await hub.close();
    }
    expect(await servers(home)).toEqual({});
  });
});
