// The listed input schema drops validation-only keywords; the call is still validated by zod.
import { describe, expect, test } from 'vitest';
import { listedInputSchema } from '../../src/tools/listed-schema.js';
import { makeHubHome } from '../helpers/home.js';
import { startHubInProcess, textOf } from '../helpers/hub.js';

describe('listed input schemas', () => {
  test('validation-only keywords go; types, enums, defaults, ranges and a property named like a keyword stay', () => {
    const listed = listedInputSchema({
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: 1000, description: 'a regex' },
        id: { type: 'string', pattern: '^[a-z]+$' },
        tags: { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 64 } },
        env: { type: 'object', propertyNames: { pattern: '^[A-Z_]+$' }, additionalProperties: { type: 'string' } },
        lines: { type: 'integer', minimum: 1, maximum: 2000, default: 100 },
        cursor: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        signal: { type: 'string', enum: ['SIGTERM', 'SIGKILL'] },
      },
      required: ['id'],
      additionalProperties: false,
    });
    expect(listed).toEqual({
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'a regex' },
        id: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        lines: { type: 'integer', minimum: 1, maximum: 2000, default: 100 },
        cursor: { type: 'integer', minimum: 0 },
        signal: { type: 'string', enum: ['SIGTERM', 'SIGKILL'] },
      },
      required: ['id'],
      additionalProperties: false,
    });
  });

  test('a call breaking a dropped keyword is still refused, naming the field', async () => {
    const hub = await startHubInProcess(await makeHubHome());
    try {
      const { tools } = await hub.client.listTools();
      const start = tools.find(tool => tool.name === 'start_process')!;
      expect(JSON.stringify(start.inputSchema)).not.toContain('"pattern":"^');
      const result = await hub.call('start_process', { command: 'true', name: 'no spaces allowed' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/name/);
    } finally {
      await hub.close();
    }
  });
});
