// The CLI's one argument parser: strict, a usage error naming the word and the command's usage.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HubError } from '../core/errors.js';
import { usageOf, type CommandName } from './usage.js';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>;

// node:util parseArgs says "Option '--scope <value>' argument missing": said here the way a
// person types the flag, with the command's usage line as the fix.
function problem(error: Error): string {
  const word = /'(?:-\w, )?(-[\w-]*)/.exec(error.message)?.[1] ?? '';
  if (/argument missing/.test(error.message)) return `${word} needs a value`;
  if (/does not take an argument/.test(error.message)) return `${word} takes no value`;
  if (/Unknown option/.test(error.message)) return `Unknown option ${word}`;
  const positional = /Unexpected argument '(.*)'/.exec(error.message)?.[1];
  if (positional !== undefined) return `Unexpected argument "${positional}"`;
  return error.message.replace(/\.$/, '');
}

const isParseError = (error: unknown): error is Error =>
  error instanceof Error && String((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS');

/**
 * The CLI's one argument parser: node:util parseArgs, strict. A flag it does not know, a value it
 * lacks or an argument a command takes none of is a usage error (exit 2) that names the word and
 * shows the command's usage.
 */
export function parseCommandArgs<const O extends ParseArgsOptionsConfig>(
  command: CommandName,
  argv: readonly string[],
  options: O,
  { positionals = true }: { positionals?: boolean } = {},
): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: positionals, strict: true });
  } catch (error) {
    if (!isParseError(error)) throw error;
    throw new HubError('INVALID_INPUT', `${problem(error)}. ${usageOf(command)}`);
  }
}
