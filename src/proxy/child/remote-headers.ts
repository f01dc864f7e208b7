// A remote server's headers: checked, and their ${VAR} references expanded when it connects.
import { HubError } from '../../core/errors.js';

// A remote server's headers are secrets like env: `${VAR}` in a value reads the server's own env
// first, then hub's environment, when the connection opens (so a token can live outside db.json).

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_HEADERS = 50;
const MAX_VALUE_CHARS = 8192;

/** Refuses header names or values that cannot be sent (names the header, never shows a value). */
export function checkHeaders(headers: Readonly<Record<string, string>>): void {
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS)
    throw new HubError('INVALID_INPUT', `Field "headers" has ${entries.length} headers; at most ${MAX_HEADERS}.`);
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name))
      throw new HubError(
        'INVALID_INPUT',
        `Field "headers" has an invalid header name ${JSON.stringify(name.slice(0, 80))}: use letters, digits and "-" (for example "Authorization" or "X-Api-Key").`,
      );
    if (value.length > MAX_VALUE_CHARS || /[\r\n\0]/.test(value))
      throw new HubError(
        'INVALID_INPUT',
        `Field "headers" value of "${name}" must be one line of at most ${MAX_VALUE_CHARS} characters.`,
      );
  }
}

/** The variables the header values refer to (`${VAR}`), for saying which are unset. */
export function headerVariables(headers: Readonly<Record<string, string>>): string[] {
  const names = new Set<string>();
  for (const value of Object.values(headers)) for (const match of value.matchAll(REFERENCE)) names.add(match[1]!);
  return [...names];
}

/** The headers with every `${VAR}` replaced; an unset variable is an error naming it and its header. */
export function expandHeaders(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    expanded[name] = value.replace(REFERENCE, (_whole, variable: string) => {
      const found = env[variable] ?? source[variable];
      if (found === undefined || found === '')
        throw new HubError(
          'MISSING_ENV',
          `header "${name}" refers to \${${variable}}, which is not set: give it with registry.install { env: { "${variable}": "…" } } or set it in hub's environment.`,
        );
      return found;
    });
  }
  return expanded;
}
