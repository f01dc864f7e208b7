// The bookkeeping of input_required rounds for a 2026-07-28 client (wire/input-rounds.ts), on its
// own: which call a question goes to, what happens to the child's answer when the client has no
// id waiting, a retry's cancel, a client that never answers, and the bounds.
import { expect, test } from 'vitest';
import { InputRoundError, InputRounds } from '../../src/wire/input-rounds.js';

type Json = Record<string, unknown>;

function rounds(): { rounds: InputRounds; sent: Json[] } {
  const sent: Json[] = [];
  const made = new InputRounds();
  made.attach(async message => void sent.push(made.outgoing(message) ?? { held: message }));
  return { rounds: made, sent };
}

const stateOf = (message: Json | undefined) => (message?.result as Json).requestState as string;

test('the question goes to the one call in flight; the retry takes the answer and the child’s result its id', async () => {
  const { rounds: r, sent } = rounds();
  r.callStarted('a', 'tools/call', { elicitation: {} });
  expect(r.capabilities()).toEqual({ elicitation: {} });
  const answer = r.ask({ method: 'elicitation/create', params: { message: 'ok?' } }, {});
  expect(sent[0]).toMatchObject({ id: 'a', result: { resultType: 'input_required' } });
  expect(
    r.retry('b', 'tools/call', { requestState: stateOf(sent[0]), inputResponses: { '1': { action: 'accept' } } }, {}),
  ).toBe('taken');
  expect(await answer).toEqual({ action: 'accept' });
  // The child answers its call (first id "a"): it leaves under the retry's id.
  expect(r.outgoing({ jsonrpc: '2.0', id: 'a', result: { content: [] } })).toEqual({
    jsonrpc: '2.0',
    id: 'b',
    result: { content: [] },
  });
  expect(r.active).toBe(false);
  expect(r.capabilities()).toBeUndefined();
});

test('two calls in flight: a question that names neither is refused; none in flight: refused too', () => {
  const { rounds: r } = rounds();
  expect(() => r.ask({ method: 'roots/list', params: {} }, {})).toThrow(/no call of this client/);
  r.callStarted(1, 'tools/call', {});
  r.callStarted(2, 'tools/call', {});
  expect(() => r.ask({ method: 'roots/list', params: {} }, {})).toThrow(InputRoundError);
  expect(() => r.ask({ method: 'roots/list', params: {} }, {})).toThrow(/2 calls of this client are in progress/);
});

test('a client that never retries: the child is told, and what it then answers is dropped', async () => {
  const { rounds: r, sent } = rounds();
  r.callStarted('a', 'tools/call', {});
  const answer = r.ask({ method: 'elicitation/create', params: {} }, { timeout: 20 });
  await expect(answer).rejects.toThrow(/did not answer: no answer within 20 ms/);
  expect(r.outgoing({ jsonrpc: '2.0', id: 'a', result: { isError: true } })).toBeUndefined();
  expect(r.active).toBe(false);
  // Its requestState is dead.
  expect(r.retry('z', 'tools/call', { requestState: stateOf(sent[0]), inputResponses: { '1': {} } }, {})).toBe(
    'unknown',
  );
});

test('a retry’s cancel reaches the call by its first id; a foreign requestState is not hub’s', async () => {
  const { rounds: r, sent } = rounds();
  r.callStarted('a', 'tools/call', {});
  const answer = r.ask({ method: 'elicitation/create', params: {} }, {});
  expect(
    r.retry('b', 'tools/call', { requestState: stateOf(sent[0]), inputResponses: { '1': { action: 'cancel' } } }, {}),
  ).toBe('taken');
  await answer;
  expect(r.cancelled('b')).toBe('a');
  expect(r.outgoing({ jsonrpc: '2.0', id: 'a', error: { code: -32800, message: 'cancelled' } })).toBeUndefined();
  expect(
    r.retry('c', 'tools/call', { requestState: 'a modern child’s own state', inputResponses: {} }, {}),
  ).toBeUndefined();
});

test('a retry without inputResponses["1"] fails the child’s question, not the call', async () => {
  const { rounds: r, sent } = rounds();
  r.callStarted('a', 'tools/call', {});
  const answer = r.ask({ method: 'elicitation/create', params: {} }, {});
  expect(r.retry('b', 'tools/call', { requestState: stateOf(sent[0]) }, {})).toBe('taken');
  await expect(answer).rejects.toThrow(/without inputResponses/);
  expect(r.outgoing({ jsonrpc: '2.0', id: 'a', result: { content: [] } })).toMatchObject({ id: 'b' });
});
