import { describe, expect, test } from 'vitest';
import { claimOf, discoverResult, modernResult } from '../../src/wire/era.js';
import { fastResponse } from '../../src/wire/raw-result.js';

// The 2026-07-28 envelope and result fields as pure functions (the cold-start lane and the full
// hub share them), and the raw lane refusing to pass an input_required line as an answer.

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

describe('claimOf', () => {
  test('no revision in _meta is a 2025 request, whatever else _meta holds', () => {
    expect(claimOf(undefined)).toEqual({ era: 'legacy' });
    expect(claimOf({ _meta: { progressToken: 1 } })).toEqual({ era: 'legacy' });
  });
  test('2026-07-28 with capabilities is modern', () => {
    expect(claimOf({ _meta: { [VERSION]: '2026-07-28', [CAPS]: {} } })).toMatchObject({ era: 'modern' });
  });
  test('another revision is -32022 naming both; a missing or odd envelope field is -32602 naming it', () => {
    expect(claimOf({ _meta: { [VERSION]: '2025-11-25', [CAPS]: {} } })).toEqual({
      era: 'refused',
      error: expect.objectContaining({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } }),
    });
    expect(claimOf({ _meta: { [VERSION]: '2026-07-28' } })).toMatchObject({
      error: { code: -32602, message: expect.stringContaining(CAPS) },
    });
    expect(
      claimOf({ _meta: { [VERSION]: '2026-07-28', [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': 'me' } }),
    ).toMatchObject({ error: { code: -32602, message: expect.stringContaining('clientInfo') } });
  });
});

describe('modern results', () => {
  const hub = { name: 'hub', version: '1' };
  test('lists and reads get the cache fields, calls do not; a result keeps its own resultType and _meta', () => {
    expect(modernResult('tools/list', { tools: [] }, hub)).toEqual({
      resultType: 'complete',
      ttlMs: 10_000,
      cacheScope: 'private',
      tools: [],
      _meta: { 'io.modelcontextprotocol/serverInfo': hub },
    });
    // Reads move (hub://processes, a child's files): never cached.
    expect(modernResult('resources/read', { contents: [] }, hub)).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const asked = { resultType: 'input_required', requestState: 's', _meta: { mine: 1 } };
    expect(modernResult('tools/call', asked, hub)).toEqual({
      resultType: 'input_required',
      requestState: 's',
      _meta: { mine: 1, 'io.modelcontextprotocol/serverInfo': hub },
    });
  });
  test('server/discover lists the modern revision first, then the 2025 ones', () => {
    const result = discoverResult({ legacyVersions: ['2025-11-25'], capabilities: {}, serverInfo: hub });
    expect(result).toMatchObject({
      supportedVersions: ['2026-07-28', '2025-11-25'],
      ttlMs: 10_000,
      cacheScope: 'private',
    });
    expect(result).not.toHaveProperty('instructions');
  });
});

describe('the raw result lane', () => {
  test('an input_required line in either key order is parsed, never passed on as it is', () => {
    const body = '{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list"}}}';
    expect(fastResponse(`{"result":${body},"jsonrpc":"2.0","id":"hub-7"}`)).toBeUndefined();
    expect(fastResponse(`{"jsonrpc":"2.0","id":"hub-7","result":${body}}`)).toBeUndefined();
    // A complete one still takes the raw lane.
    expect(fastResponse('{"result":{"resultType":"complete","content":[]},"jsonrpc":"2.0","id":"hub-7"}')?.id).toBe(
      'hub-7',
    );
  });
});
