// An invalid hub setting in a client's entry (HUB_EXPOSURE=everything) used to end hub before it
// answered: the client showed only "Connection closed". Now hub stays and answers initialize (and
// every later request) with an error that names the variable and its valid values.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, onTestFinished, test } from 'vitest';
import { makeHubHome } from '../../helpers/home.js';
import { SERVER_JS } from '../../helpers/hub.js';

async function connectWith(env: Record<string, string>): Promise<{ error: unknown; stderr: string }> {
  const home = await makeHubHome();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER_JS],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, HUB_HOME: home, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'settings-test', version: '1.0.0' });
  onTestFinished(() => client.close());
  const error = await client.connect(transport).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return { error, stderr };
}

describe('an invalid hub setting in the entry env', () => {
  test.each(['on', 'off'])('HUB_EXPOSURE is named with its valid values (HUB_SHARED=%s)', async shared => {
    const { error, stderr } = await connectWith({ HUB_EXPOSURE: 'everything', HUB_SHARED: shared });
    expect((error as Error | undefined)?.message).toMatch(
      /Invalid environment variable HUB_EXPOSURE: HUB_EXPOSURE must be all, search or auto/,
    );
    expect(stderr).toMatch(/^hub: error: Invalid environment variable HUB_EXPOSURE/m);
  });

  test('HUB_SHARED is named too', async () => {
    const { error } = await connectWith({ HUB_SHARED: 'maybe' });
    expect((error as Error | undefined)?.message).toMatch(/HUB_SHARED must be on or off/);
  });
});
