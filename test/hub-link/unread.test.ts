// What an entry sends on to the next hub when the one it attached to closed before its welcome.
import { expect, test } from 'vitest';
import { unreadLines } from '../../src/hub-link/unread.js';

const line = (message: object) => `${JSON.stringify(message)}\n`;

test('every line goes on but the requests sent again anyway; the keys are those of the requests carried', () => {
  const parts = [
    Buffer.from(
      line({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) +
        line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }),
    ),
    Buffer.from(
      line({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'start_process' } }) +
        'not json\n' +
        line({ jsonrpc: '2.0', id: 9, result: {} }),
    ),
  ];
  const { lines, keys } = unreadLines(parts, new Map([['"a"', Buffer.alloc(0)]]));
  expect(Buffer.concat(lines).toString()).toBe(
    line({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) +
      line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }) +
      'not json\n' +
      line({ jsonrpc: '2.0', id: 9, result: {} }),
  );
  // A response of the client's (id 9) is not a request in flight.
  expect([...keys]).toEqual(['3']);
});
