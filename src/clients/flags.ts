import { HubError } from '../errors.js';

export interface ParsedFlags {
  readonly positional: string[];
  readonly booleans: Set<string>;
  readonly strings: Map<string, string>;
}

/** `--flag`, `--key value` and `--key=value`; anything unknown is an error naming it. */
export function parseFlags(
  argv: readonly string[],
  booleans: readonly string[],
  strings: readonly string[],
): ParsedFlags {
  const parsed: ParsedFlags = { positional: [], booleans: new Set(), strings: new Map() };
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (!word.startsWith('-') || word === '-') {
      parsed.positional.push(word);
      continue;
    }
    const [flag, inline] = word.split(/=(.*)/s, 2) as [string, string | undefined];
    const name = flag.replace(/^--?/, '');
    if (booleans.includes(name) && inline === undefined) parsed.booleans.add(name);
    else if (strings.includes(name)) {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new HubError('INVALID_INPUT', `${flag} needs a value.`);
      parsed.strings.set(name, value);
    } else {
      throw new HubError(
        'INVALID_INPUT',
        `Unknown option ${flag}: the options are ${[...booleans, ...strings].map(f => `--${f}`).join(', ')}.`,
      );
    }
  }
  return parsed;
}
