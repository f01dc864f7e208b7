// Obvious secrets in server arguments masked before they are printed.
import { SECRET_WORDS, maskSecretText } from '../core/secret-names.js';

// Env values are never printed; args are, so the obvious secrets in them are masked too.
const SECRET_FLAG = new RegExp(`^--?[\\w-]*(${SECRET_WORDS})[\\w-]*$`, 'i');

export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : '';
    if (SECRET_FLAG.test(previous) && !arg.startsWith('-')) return '***';
    return maskSecretText(arg);
  });
}
