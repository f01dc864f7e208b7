import { expect } from 'vitest';
import { fixture, textOf, type HubSession } from './hub.js';
import { sharedFile } from './home.js';

/** A real child whose tools, instructions, prompts and resources follow `HUB_HOME/tools-spec.json`. */
export const CHANGING = fixture('changing-server.mjs');

/** Installs the changing server as `chg`, reading its spec from `home`; fails the test if the install does. */
export async function installChanging(hub: Pick<HubSession, 'call'>, home: string) {
  const installed = await hub.call('registry_install', {
    command: process.execPath,
    args: [CHANGING],
    name: 'chg',
    env: { CHANGING_TOOLS_FILE: sharedFile(home, 'tools-spec.json') },
  });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  return installed;
}
