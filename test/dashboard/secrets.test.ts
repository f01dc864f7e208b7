import { describe, expect, test } from 'vitest';
import { scrub, secretValues } from '../../src/dashboard/secrets.js';
import type { StoreData } from '../../src/store/schema.js';

describe('dashboard secrets', () => {
  test('server env and header values are masked wherever they appear, JSON-escaped too', () => {
    const data = {
      servers: {
        a: {
          env: { API_KEY: 'sk-123456"quoted', SHORT: '1' },
          remote: { url: 'https://x', headers: { authorization: 'Bearer abcdefgh' } },
        },
      },
      processes: {},
    } as unknown as StoreData;
    const secrets = secretValues(data);
    expect(secrets).toEqual(['sk-123456"quoted', 'Bearer abcdefgh']);
    const body = JSON.stringify({ line: 'key sk-123456"quoted and Bearer abcdefgh', flag: '1' });
    expect(scrub(body, secrets)).toBe(JSON.stringify({ line: 'key *** and ***', flag: '1' }));
  });
});
