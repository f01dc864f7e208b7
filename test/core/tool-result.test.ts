import { expect, test } from 'vitest';
import { HubError } from '../../src/core/errors.js';
import { ERROR_CAP_BYTES, errorResult } from '../../src/core/tool-result.js';

test('an error result is cut to ERROR_CAP_BYTES, saying so, however long the message it echoes', () => {
  const result = errorResult(new HubError('INVALID_INPUT', `Field "cwd" is not a folder: ${'x'.repeat(200_000)}`));
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ERROR_CAP_BYTES);
  expect(text).toMatch(/^INVALID_INPUT: Field "cwd"/);
  expect(text).toMatch(/truncated/);
});
