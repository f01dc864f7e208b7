// Callers' line patterns on RE2, linear in the line, so no pattern can freeze hub.
import { RE2JS } from 're2js';
import { HubError } from '../../core/errors.js';

// Patterns from callers (get_process_logs grep, wait_for.pattern, hub logs --grep) run on
// RE2 (re2js): matching time is linear in the line, so no pattern can freeze hub the way
// `(a+)+$` froze V8's backtracking engine (6.9 s on a 27-character line). The price is RE2's
// syntax: no backreferences and no lookaround, which are refused with a clear message.

/** What the log readers need of a pattern (a RegExp also fits). */
export interface LineMatcher {
  test(line: string): boolean;
  /** The pattern as given (kept with a process's wait_for, for restart_process). */
  readonly source: string;
}

// Lines longer than this are matched on their first and last part only: RE2 is linear, but a
// hostile pattern on a multi-megabyte line still costs ~100 ms per MB (measured).
export const MATCH_MAX_CHARS = 256 * 1024;

const LOOKAROUND = /\(\?<?[=!]/;
const BACKREFERENCE = /\\[1-9]|\\k</;

/** Why text cannot be used as a line pattern, or undefined when it can. */
export function linePatternProblem(text: string): string | undefined {
  if (LOOKAROUND.test(text)) {
    return 'uses lookaround ((?=, (?!, (?<=, (?<!), which the linear-time matcher (RE2 syntax) does not support; match the text itself instead, e.g. "ready" rather than "(?=ready)"';
  }
  if (BACKREFERENCE.test(text)) {
    return 'uses a backreference (\\1 or \\k<name>), which the linear-time matcher (RE2 syntax) does not support; spell the repeated text out or match a looser pattern';
  }
  try {
    RE2JS.compile(RE2JS.translateRegExp(text));
    return undefined;
  } catch (error) {
    return `not a valid regular expression in RE2 syntax (${(error as Error).message})`;
  }
}

/** Compiles text for matching log lines; a bad pattern is INVALID_INPUT naming field. */
export function compileLinePattern(text: string, field: string): LineMatcher {
  const problem = linePatternProblem(text);
  if (problem !== undefined) throw new HubError('INVALID_INPUT', `${field}: ${problem}.`);
  const pattern = RE2JS.compile(RE2JS.translateRegExp(text));
  return {
    source: text,
    test(line) {
      if (line.length <= MATCH_MAX_CHARS) return pattern.test(line);
      const half = MATCH_MAX_CHARS / 2;
      return pattern.test(line.slice(0, half)) || pattern.test(line.slice(-half));
    },
  };
}
