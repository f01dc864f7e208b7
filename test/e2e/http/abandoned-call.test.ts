// Issue 32 item 6: what the conformance suite found through `hub serve`. A client that closes its
// connection in the middle of a call has abandoned it: the call is cancelled in the shared child
// and stops counting as that session's, so the next session's elicitation reaches it. Two
// sessions really at once are refused with a command that exists. SIGTERM with a call open exits
// at once. The built dist/server.js, real HTTP on 127.0.0.1, and the conformance suite's own
// everything-server (test/fixtures/conformance/) installed behind hub by URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, onTestFinished, test, vi } from 'vitest';
import { cli } from '../../helpers/cli.js';
import { makeHubHome } from '../../helpers/home.js';
import { textOf } from '../../helpers/hub.js';
import { startRemoteFixture } from '../../helpers/remote-fixture.js';
import { connectHttp, startServe, type Served } from '../../helpers/serve.js';

/** `hub serve` with the everything-server installed behind it by URL as "ev". */
async function serveEverything(): Promise<{ home: string; served: Served }> {
  const everything = await startRemoteFixture('conformance/everything-server.mjs');
  const home = await makeHubHome();
  const served = await startServe(home);
  const setup = await connectHttp(served.url, served.token(), 'setup');
  const installed = await setup.call('registry_install', { url: everything.url, name: 'ev' });
  expect(installed.isError, textOf(installed)).toBeFalsy();
  await setup.client.close();
  return { home, served };
}

/** A session that can answer elicitation; `answer` decides how (never settling is a person who walked away). */
async function eliciting(served: Served, name: string, answer: () => Promise<{ action: 'accept'; content: object }>) {
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { Authorization: `Bearer ${served.token()}` } },
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked = vi.fn();
  client.setRequestHandler(ElicitRequestSchema, request => {
    asked(request.params.message);
    return answer();
  });
  await client.connect(transport);
  onTestFinished(() => client.close().catch(() => undefined));
  const call = (message: string) =>
    client.callTool({ name: 'ev_test_elicitation', arguments: { message } }) as Promise<CallToolResult>;
  return { client, transport, asked, call };
}

const never = () => new Promise<never>(() => undefined);
const accept = () => Promise.resolve({ action: 'accept' as const, content: { response: 'yes' } });

test('a call whose client closed the connection is cancelled in the shared child: the next session’s elicitation reaches it', async () => {
  const { served } = await serveEverything();
  const gone = await eliciting(served, 'gone', never);
  const abandoned = gone.call('from the client that goes away').catch(() => 'closed');
  await vi.waitFor(() => expect(gone.asked).toHaveBeenCalled(), { timeout: 20_000, interval: 50 });
  // The connection closes with the call open: no DELETE, no notifications/cancelled.
  await gone.transport.close();
  expect(await abandoned).toBe('closed');

  const next = await eliciting(served, 'next', accept);
  const result = await next.call('from the next client');
  expect(textOf(result)).toBe('User response: action=accept, content={"response":"yes"}');
  expect(next.asked).toHaveBeenCalledWith(expect.stringContaining('from the next client'));
});

// The client's own cancel already reached the child before issue 32; kept beside the closed
// connection so both ways of abandoning a call are held to the same outcome.
test('a call the client cancelled (notifications/cancelled) stops counting too: the next session’s elicitation reaches it', async () => {
  const { served } = await serveEverything();
  const quitter = await eliciting(served, 'quitter', never);
  const controller = new AbortController();
  const cancelled = quitter.client
    .callTool({ name: 'ev_test_elicitation', arguments: { message: 'never mind' } }, undefined, {
      signal: controller.signal,
    })
    .catch(() => 'cancelled');
  await vi.waitFor(() => expect(quitter.asked).toHaveBeenCalled(), { timeout: 20_000, interval: 50 });
  controller.abort('never mind');
  expect(await cancelled).toBe('cancelled');
  const next = await eliciting(served, 'next', accept);
  expect(textOf(await next.call('from the next client'))).toBe(
    'User response: action=accept, content={"response":"yes"}',
  );
});

test('two sessions with calls open to a shared child: the elicitation is refused naming `hub-mcp servers configure <name> --per-session`, which works', async () => {
  const { home, served } = await serveEverything();
  const first = await eliciting(served, 'first', never);
  void first.call('first').catch(() => undefined);
  await vi.waitFor(() => expect(first.asked).toHaveBeenCalled(), { timeout: 20_000, interval: 50 });
  const second = await eliciting(served, 'second', accept);
  const result = await second.call('second');
  expect(second.asked).not.toHaveBeenCalled();
  expect(textOf(result)).toContain('hub-mcp servers configure ev --per-session');
  const configured = await cli(home, 'servers', 'configure', 'ev', '--per-session');
  expect(configured.code, configured.stdout + configured.stderr).toBe(0);
  expect(configured.stdout).toContain('per-session');
});

test('SIGTERM with a call open: hub serve cancels it, closes the sessions and exits at once', async () => {
  const { served } = await serveEverything();
  const open = await eliciting(served, 'open', never);
  void open.call('still open').catch(() => undefined);
  await vi.waitFor(() => expect(open.asked).toHaveBeenCalled(), { timeout: 20_000, interval: 50 });
  // The witness: a process that lives 5 s, started with the SIGTERM. The old hub outlived it (it
  // waited ~10 s on the SDK's timers to reconnect the remote child's streams ended by its DELETE).
  const witness = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  onTestFinished(() => void witness.kill('SIGKILL'));
  const order: string[] = [];
  const exits = (child: ChildProcess, name: string) =>
    new Promise<void>(resolve => child.once('exit', () => resolve(void order.push(name))));
  served.child.kill('SIGTERM');
  await Promise.all([exits(served.child, 'hub'), exits(witness, 'witness')]);
  expect(order).toEqual(['hub', 'witness']);
  expect(served.output()).toContain('hub-mcp serve stopped.');
});
