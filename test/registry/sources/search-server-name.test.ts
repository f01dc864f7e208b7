// deriveServerName: the suggested server name search shows and install uses when none is given.
import { describe, expect, test } from 'vitest';
import { deriveServerName, isValidServerName, SERVER_NAME_PATTERN } from '../../../src/registry/sources/server-name.js';

describe('deriveServerName', () => {
  test.each([
    ['@modelcontextprotocol/server-memory', 'memory'],
    ['@modelcontextprotocol/server-sequential-thinking', 'sequential-thinking'],
    ['@playwright/mcp', 'playwright'],
    ['@sentry/mcp-server', 'sentry'],
    ['@notionhq/notion-mcp-server', 'notion'],
    ['@supabase/mcp-server-supabase', 'supabase'],
    ['exa-mcp-server', 'exa'],
    ['tavily-mcp', 'tavily'],
    ['mcp-server-kubernetes', 'kubernetes'],
    ['mcp-fetch-server', 'fetch'],
    ['chrome-devtools-mcp', 'chrome-devtools'],
    ['@upstash/context7-mcp', 'context7'],
    ['@modelcontextprotocol/server-memory@2026.8.31', 'memory'],
    ['some-package@latest', 'some-package'],
    ['My_Server.JS', 'my-server-js'],
    ['1password-mcp', 'mcp-1password'],
    ['mcp-server-registry', 'registry-server'],
    ['hub', 'mcp-hub'],
    ['hub-consent-mcp', 'mcp-hub-consent'],
    ['@acme/hub-approvals-and-installs', 'mcp-hub-approvals-an'],
    ['mcp', 'server'],
    ['@acme/a-really-long-package-name-for-a-server', 'a-really-long-packag'],
    ['@acme/abcdefghijklmnopqrs-tuvwxyz', 'abcdefghijklmnopqrs'],
  ])('%s → %s', (pkg, expected) => {
    const name = deriveServerName(pkg);
    expect(name).toBe(expected);
    expect(name).toMatch(SERVER_NAME_PATTERN);
    expect(isValidServerName(name)).toBe(true);
  });

  test('never yields a reserved or invalid name', () => {
    for (const pkg of [
      'registry',
      'process',
      '@hub/mcp',
      'hub-consent',
      '@hub/mcp-server',
      'hub',
      '---',
      '@x/---',
      '9',
      'server-mcp',
      '@scope/server',
    ]) {
      expect(isValidServerName(deriveServerName(pkg))).toBe(true);
    }
  });
});
