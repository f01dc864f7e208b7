import { describe, expect, test } from 'vitest';
import { appMetaProblem, isAppOnly, withoutAppMeta } from '../../../src/proxy/listing/apps.js';
import { shownUri, uiUriPlan, withShownUri } from '../../../src/proxy/listing/app-uris.js';

const tool = (meta: Record<string, unknown>) => ({ name: 't', inputSchema: { type: 'object' }, _meta: meta });

describe('MCP Apps metadata in the lists', () => {
  test('app-only, malformed and stripped metadata', () => {
    expect(isAppOnly(tool({ ui: { visibility: ['app'] } }))).toBe(true);
    expect(isAppOnly(tool({ ui: { visibility: ['model', 'app'] } }))).toBe(false);
    expect(isAppOnly(tool({ ui: { resourceUri: 'ui://a/b' } }))).toBe(false);
    expect(appMetaProblem(tool({ ui: { visibility: 'app' } }))).toMatch(/_meta\.ui\.visibility must be a list/);
    expect(appMetaProblem(tool({ ui: 'x' }))).toMatch(/_meta\.ui must be an object/);
    expect(appMetaProblem(tool({ 'ui/resourceUri': 'http://x' }))).toMatch(/must be a ui:\/\/ URI/);
    expect(appMetaProblem(tool({ ui: { resourceUri: 'ui://a/b', visibility: ['model'] } }))).toBeUndefined();
    expect(withoutAppMeta(tool({ ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://a', other: 1 }))._meta).toEqual(
      {
        other: 1,
      },
    );
    expect('_meta' in withoutAppMeta(tool({ ui: {} }))).toBe(false);
  });

  test('a ui:// URI two servers use is renamed for the later one only', () => {
    const server = (name: string, order: number, uri: string) => ({
      name,
      order,
      tools: [tool({ ui: { resourceUri: uri } })],
      surface: { resources: [{ uri, name: 'v' }] },
    });
    const plan = uiUriPlan([server('beta', 2, 'ui://app/v.html'), server('alpha', 1, 'ui://app/v.html')]);
    expect(shownUri(plan, 'alpha', 'ui://app/v.html')).toBe('ui://app/v.html');
    expect(shownUri(plan, 'beta', 'ui://app/v.html')).toBe('ui://beta/app/v.html');
    expect(plan.own.get('ui://beta/app/v.html')).toEqual({ server: 'beta', uri: 'ui://app/v.html' });
    expect(
      withShownUri(plan, 'beta', tool({ ui: { resourceUri: 'ui://app/v.html', visibility: ['model'] } }))._meta,
    ).toEqual({ ui: { resourceUri: 'ui://beta/app/v.html', visibility: ['model'] } });
    // A rename never lands on a URI some server uses itself.
    const taken = uiUriPlan([
      server('a', 1, 'ui://x/v'),
      server('b', 2, 'ui://x/v'),
      { name: 'c', order: 3, surface: { resources: [{ uri: 'ui://b/x/v', name: 'v' }] } },
    ]);
    expect(shownUri(taken, 'b', 'ui://x/v')).toBe('ui://b.2/x/v');
  });
});
