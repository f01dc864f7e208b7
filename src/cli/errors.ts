// The CLI's exit codes and the one line a person reads for an error.
import { HubError } from '../core/errors.js';
import { COMMAND_NAME } from '../core/package-name.js';
import { cliWords } from './cli-words.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** 2 for wrong usage (an unknown option, a bad value: cli/args.ts), 1 for everything that failed. */
export const exitCodeFor = (error: unknown): number =>
  error instanceof HubError && error.code === 'INVALID_INPUT' ? EXIT_USAGE : EXIT_FAILED;

/** The error as a person reads it: `hub-mcp <command>: <message>`, no stack, no JSON, CLI commands for tool calls. */
export function errorLine(command: string, error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).trim();
  return `${COMMAND_NAME} ${command}: ${cliWords(message)}\n`;
}
