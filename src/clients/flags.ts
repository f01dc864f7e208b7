import { parseArgs } from 'node:util';
import { HubError } from '../core/errors.js';

export interface ParsedFlags {
  readonly positional: string[];
  readonly booleans: Set<string>;
  readonly strings: Map<string, string>;
}

/**
 * `--flag`, `--key value` and `--key=value` through node:util parseArgs, the CLI's one argument
 * parser; anything unknown is a usage error (exit 2) that lists the options.
 */
export function parseFlags(
  argv: readonly string[],
  booleans: readonly string[],
  strings: readonly string[],
): ParsedFlags {
  const options = Object.fromEntries([
    ...booleans.map(name => [name, { type: 'boolean' as const }]),
    ...strings.map(name => [name, { type: 'string' as const }]),
  ]);
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const word = /'(-[\w-]*)/.exec(message)?.[1] ?? '';
    const why = /argument missing/.test(message)
      ? `${word} needs a value`
      : /does not take an argument/.test(message)
        ? `${word} takes no value`
        : `Unknown option ${word}`;
    throw new HubError(
      'INVALID_INPUT',
      `${why}: the options are ${[...booleans, ...strings].map(f => `--${f}`).join(', ')}.`,
    );
  }
  const result: ParsedFlags = { positional: [...parsed.positionals], booleans: new Set(), strings: new Map() };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === true) result.booleans.add(name);
    else if (typeof value === 'string') result.strings.set(name, value);
  }
  return result;
}
