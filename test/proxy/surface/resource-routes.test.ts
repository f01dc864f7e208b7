// Where a resource URI goes (proxy/surface/resource-routes.ts), from store data alone: a listed URI, then
// a matching template, then the one server sharing the URI's origin; two claimants at the same
// step are both reported (the read is refused naming both), never one shadowing the other.
import { describe, expect, test } from 'vitest';
import { buildResourceRoutes } from '../../../src/proxy/surface/resource-routes.js';
import { childLogMessage, levelAtLeast } from '../../../src/proxy/sessions/log-relay.js';
import type { CachedSurface, ServerWithTools } from '../../../src/store/schema.js';

function record(name: string, order: number, surface: Partial<CachedSurface>): ServerWithTools {
  return {
    name,
    order,
    command: 'node',
    args: [],
    env: {},
    mode: 'command',
    installedAt: '2026-01-01T00:00:00.000Z',
    autoStart: false,
    tools: [],
    surface: { prompts: [], resources: [], resourceTemplates: [], ...surface },
  };
}

const docs = record('docs', 1, {
  resources: [{ uri: 'docs://guide/intro', name: 'intro' }],
  resourceTemplates: [{ uriTemplate: 'docs://guide/{page}', name: 'page' }],
});
const files = record('files', 2, {
  resources: [{ uri: 'file:///etc/hosts', name: 'hosts' }],
  resourceTemplates: [{ uriTemplate: 'file:///{+path}', name: 'any file' }],
});

describe('resource routes', () => {
  test('a listed URI, a template match, an origin match, and nothing', () => {
    const routes = buildResourceRoutes([files, docs]);
    // Listed in install order, whatever order the records come in.
    expect(routes.resources.map(resource => resource.uri)).toEqual(['docs://guide/intro', 'file:///etc/hosts']);
    expect(routes.owners('docs://guide/intro')).toEqual(['docs']);
    expect(routes.owners('docs://guide/setup')).toEqual(['docs']);
    expect(routes.owners('file:///home/me/notes.md')).toEqual(['files']);
    // Neither listed nor a template match (the template has one segment), but docs' origin.
    expect(routes.owners('docs://guide/a/b/c')).toEqual(['docs']);
    expect(routes.owners('https://example.com/')).toEqual([]);
    expect(routes.owners('not a uri')).toEqual([]);
    expect(routes.templateOwners('docs://guide/{page}')).toEqual(['docs']);
  });

  test("hub:// URIs are hub's own: a server that lists one never takes hub's reads", () => {
    const squatter = record('squatter', 3, {
      resources: [{ uri: 'hub://processes', name: 'fake' }],
      resourceTemplates: [{ uriTemplate: 'hub://{+anything}', name: 'fake' }],
    });
    expect(buildResourceRoutes([squatter]).owners('hub://processes')).toEqual([]);
    expect(buildResourceRoutes([squatter]).owners('hub://servers')).toEqual([]);
  });

  test('two servers listing one URI, or with templates matching it, are both named', () => {
    const twin = record('twin', 3, {
      resources: [{ uri: 'docs://guide/intro', name: 'intro again' }],
      resourceTemplates: [{ uriTemplate: 'docs://guide/{name}', name: 'other page' }],
    });
    const routes = buildResourceRoutes([docs, twin]);
    expect(routes.resources).toHaveLength(2);
    expect(routes.owners('docs://guide/intro')).toEqual(['docs', 'twin']);
    expect(routes.owners('docs://guide/setup')).toEqual(['docs', 'twin']);
  });

  test('the signature changes with any listed field, not only URIs', () => {
    const before = buildResourceRoutes([docs]).signature;
    const renamed = record('docs', 1, { ...docs.surface, resources: [{ uri: 'docs://guide/intro', name: 'Intro' }] });
    expect(buildResourceRoutes([renamed]).signature).not.toBe(before);
    expect(buildResourceRoutes([docs]).signature).toBe(before);
  });

  test('a template hub cannot parse is still listed and does not break the others', () => {
    const odd = record('odd', 3, { resourceTemplates: [{ uriTemplate: 'odd://{unclosed', name: 'odd' }] });
    const routes = buildResourceRoutes([docs, odd]);
    expect(routes.templates).toHaveLength(2);
    expect(routes.owners('docs://guide/setup')).toEqual(['docs']);
  });
});

describe('log messages from servers', () => {
  test("logger is the server; the server's own logger is kept", () => {
    expect(childLogMessage('db', { level: 'info', data: 'up' })).toEqual({ level: 'info', logger: 'db', data: 'up' });
    expect(childLogMessage('db', { level: 'info', logger: 'pool', data: 'up' })).toEqual({
      level: 'info',
      logger: 'db',
      data: 'pool: up',
    });
    expect(childLogMessage('db', { level: 'error', logger: 'pool', data: { n: 1 } })).toEqual({
      level: 'error',
      logger: 'db',
      data: { logger: 'pool', data: { n: 1 } },
    });
  });

  test('levels in RFC 5424 order', () => {
    expect(levelAtLeast('error', 'warning')).toBe(true);
    expect(levelAtLeast('warning', 'warning')).toBe(true);
    expect(levelAtLeast('info', 'warning')).toBe(false);
    expect(levelAtLeast('emergency', 'debug')).toBe(true);
  });
});
