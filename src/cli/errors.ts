import { HubError } from '../core/errors.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

// node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes (unknown option, missing value).
const isParseError = (error: unknown): boolean =>
  error instanceof Error && String((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS');

/** 2 for wrong usage (an unknown option, a bad value), 1 for everything that failed. */
export const exitCodeFor = (error: unknown): number =>
  isParseError(error) || (error instanceof HubError && error.code === 'INVALID_INPUT') ? EXIT_USAGE : EXIT_FAILED;

/** The error as a person reads it: `hub <command>: <message>`, no stack, no JSON. */
export function errorLine(command: string, error: unknown, usage?: string): string {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  const hint = isParseError(error) && usage ? ` Usage: ${usage}` : '';
  return `hub ${command}: ${message}${hint && !/[.!?]$/.test(message) ? '.' : ''}${hint}\n`;
}
