// The reference server-everything (devDependency, stdio by default) through the manager in
// command mode: echo, a long operation with progress, cancellation, and child requests relayed.
import { fileURLToPath } from 'node:url';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { makeHubHome } from '../helpers/home.js';
import { textOf } from '../helpers/hub.js';
import { baseDottedName } from '../../src/core/exposed-names.js';
import { commandRecord, putRecords, startHarness, type HarnessOptions, until } from './harness.js';

const EVERYTHING = fileURLToPath(
  new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);

async function everything(options: HarnessOptions = {}) {
  const home = await makeHubHome();
  const hub = await startHarness(home, options);
  await putRecords(hub.store, commandRecord('everything', [EVERYTHING]));
  await hub.manager.start('everything');
  return hub;
}

// 41 characters dotted: listed with the middle of the tool name dropped, the end kept.
const LONG_OP = baseDottedName('everything', 'trigger-long-running-operation');

const allText = (result: { content?: unknown }): string => JSON.stringify(result.content);

describe('server-everything through the manager', () => {
  test('echo, and a long operation whose progress reaches the caller under its own token', async () => {
    const hub = await everything();
    const names = hub.manager.list('dotted').map(tool => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything.echo', LONG_OP]));
    expect(LONG_OP).toBe('everything.trigger_running-operation');
    expect(textOf(await hub.call('everything.echo', { message: 'hello' }))).toContain('hello');

    const progress: number[] = [];
    const result = await hub.client.callTool({ name: LONG_OP, arguments: { duration: 0.5, steps: 5 } }, undefined, {
      onprogress: update => progress.push(update.progress),
    });
    expect(textOf(result as never)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });

  test('cancelling a long operation ends the call at once and the server keeps serving', async () => {
    const hub = await everything();
    const abort = new AbortController();
    const progress: number[] = [];
    const call = hub.client.callTool({ name: LONG_OP, arguments: { duration: 30, steps: 30 } }, undefined, {
      signal: abort.signal,
      onprogress: update => {
        progress.push(update.progress);
        abort.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    expect(progress).toEqual([1]);
    expect(textOf(await hub.call('everything.echo', { message: 'after cancel' }))).toContain('after cancel');
    expect((await hub.manager.status('everything'))[0]?.state).toBe('ready');
  });

  test('elicitation, sampling and roots requests from the child are relayed to a client that declared them', async () => {
    const hub = await everything({
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      prepareClient(client) {
        client.setRequestHandler(ElicitRequestSchema, () => ({
          action: 'accept',
          content: { name: 'Ada', check: true, integer: 7 },
        }));
        client.setRequestHandler(CreateMessageRequestSchema, request => ({
          model: 'test-model',
          role: 'assistant',
          content: { type: 'text', text: `sampled: ${JSON.stringify(request.params.messages[0]?.content)}` },
        }));
        client.setRequestHandler(ListRootsRequestSchema, () => ({
          roots: [{ uri: 'file:///tmp/hub-root', name: 'hub-root' }],
        }));
      },
    });
    // These tools are registered once the child sees the capabilities; its list_changed brings them.
    await until(() =>
      expect(hub.manager.list('dotted').map(tool => tool.name)).toEqual(
        expect.arrayContaining([
          'everything.trigger-elicitation-request',
          'everything.trigger-sampling-request',
          'everything.get-roots-list',
        ]),
      ),
    );
    expect(allText(await hub.call('everything.trigger-elicitation-request'))).toContain('Ada');
    expect(allText(await hub.call('everything.trigger-sampling-request', { prompt: 'hi there' }))).toContain('sampled');
    expect(allText(await hub.call('everything.get-roots-list'))).toContain('hub-root');
  });

  test('a client without those capabilities gets the same tools; a relayed request is refused, the child keeps serving', async () => {
    const hub = await everything();
    const names = hub.manager.list('dotted').map(tool => tool.name);
    // The child's list does not depend on which client started it.
    expect(names).toContain('everything.trigger-elicitation-request');
    expect(names).toContain('everything.trigger-sampling-request');
    const refused = await hub.call('everything.trigger-sampling-request', { prompt: 'hi' }).then(
      result => allText(result),
      (error: Error) => error.message,
    );
    expect(refused).toContain('does not support sampling');
    expect(textOf(await hub.call('everything.echo', { message: 'still here' }))).toContain('still here');
  });
});
