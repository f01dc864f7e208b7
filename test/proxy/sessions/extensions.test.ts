import { describe, expect, test } from 'vitest';
import { takeExtensionDeclarations } from '../../../src/proxy/child/extension-intake.js';
import { ExtensionOffers, declaredExtensions } from '../../../src/proxy/sessions/extensions.js';
import { KNOWN_EXTENSIONS } from '../../../src/proxy/sessions/known-extensions.js';
import { takesApps } from '../../../src/proxy/sessions/apps-extension.js';

const UI = 'io.modelcontextprotocol/ui';
const OFFER = { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } };

describe('extensions a session supports and children are offered', () => {
  test('offered once any session declared it, and never taken back', () => {
    const offers = new ExtensionOffers(KNOWN_EXTENSIONS);
    expect(offers.offered()).toBeUndefined();
    expect(offers.note({ sampling: {} })).toBe(false);
    expect(offers.note({ extensions: { [UI]: { mimeTypes: ['text/html'] } } })).toBe(true);
    // hub offers its own settings, not the client's.
    expect(offers.offered()).toEqual(OFFER);
    expect(offers.note({})).toBe(false);
    expect(offers.offered()).toEqual(OFFER);
  });

  test('a wrong declaration is ignored with the field and the fix named', () => {
    expect(takesApps({ extensions: { [UI]: {} } })).toBe(true);
    expect(takesApps({ extensions: { [UI]: true } })).toBe(false);
    expect(takesApps({ extensions: { 'other/x': {} } })).toBe(false);
    expect(declaredExtensions({ extensions: { [UI]: { mimeTypes: 'text/html' } } }, KNOWN_EXTENSIONS).problems).toEqual(
      [
        `capabilities.extensions["${UI}"].mimeTypes must be a list of strings such as ["text/html;profile=mcp-app"]; the extension was ignored.`,
      ],
    );
    expect(declaredExtensions({ extensions: [] }, KNOWN_EXTENSIONS).problems[0]).toMatch(/must be an object keyed/);
  });

  test("a child's initialize answer keeps its good entries and loses the wrong ones", () => {
    const capabilities: Record<string, unknown> = {
      tools: {},
      extensions: { [UI]: 'yes', 'vendor/good': { on: true }, 'vendor/bad': 3 },
    };
    const problems = takeExtensionDeclarations(capabilities);
    expect(capabilities.extensions).toEqual({ 'vendor/good': { on: true } });
    expect(problems).toEqual([
      `capabilities.extensions["${UI}"] must be an object (its settings, {} for none), not "yes"; the extension was ignored.`,
      'capabilities.extensions["vendor/bad"] must be an object (its settings, {} for none), not 3; the extension was ignored.',
    ]);
    const notObject: Record<string, unknown> = { extensions: 'all' };
    expect(takeExtensionDeclarations(notObject)).toHaveLength(1);
    expect(notObject).toEqual({});
  });
});
