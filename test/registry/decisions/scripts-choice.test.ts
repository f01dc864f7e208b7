// allowScripts is read in one place for the tool, the CLI and the dashboard (the dashboard kept []
// as a truthy list, which made install.ts rebuild an installed server with no scripts allowed).
import { describe, expect, test } from 'vitest';
import { ScriptsChoiceSchema, scriptsChoiceOf } from '../../../src/registry/decisions/scripts-choice.js';

describe('scriptsChoiceOf', () => {
  test('"*" allows every package, [] none, names those packages, nothing leaves the default', () => {
    expect(scriptsChoiceOf(['*'])).toBe(true);
    expect(scriptsChoiceOf(['sqlite3', '*'])).toBe(true);
    expect(scriptsChoiceOf([])).toBe(false);
    expect(scriptsChoiceOf(['sqlite3'])).toEqual(['sqlite3']);
    expect(scriptsChoiceOf(undefined)).toBeUndefined();
  });

  test('every answer is a valid choice for installServer', () => {
    for (const names of [['*'], [], ['sqlite3', '@scope/native']])
      expect(ScriptsChoiceSchema.safeParse(scriptsChoiceOf(names)).success).toBe(true);
  });
});
