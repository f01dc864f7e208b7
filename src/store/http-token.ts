// The bearer token of `hub serve`: made on first use, kept 0600, rotated on request.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { HubError } from '../core/errors.js';
import type { HubPaths } from '../core/paths.js';
import { writeFileAtomic, writePrivate } from '../core/write-atomic.js';

// The bearer token of `hub serve` (docs/clients.md "Streamable HTTP"): 32 random bytes, base64url, in
// $HUB_HOME/http-token with mode 0600. Created on first use; `--rotate-token` replaces it.

const TOKEN = /^[A-Za-z0-9_-]{32,}$/;

export interface HttpToken {
  readonly token: string;
  readonly file: string;
  /** True when this call made the file (first use or rotation). */
  readonly created: boolean;
  /** Set when the file was readable by others and hub took that away (chmod 0600). */
  readonly repaired?: string;
}

const fresh = (): string => randomBytes(32).toString('base64url');

function readToken(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HubError('STORE_UNWRITABLE', `Cannot read the HTTP token ${file}: ${(error as Error).message}.`);
  }
  if (!TOKEN.test(text)) {
    throw new HubError(
      'INVALID_INPUT',
      `${file} does not hold a hub token (32+ base64url characters). Make a new one with: hub-mcp serve --rotate-token`,
    );
  }
  return text;
}

// A token others can read is no secret: narrowed to the owner, and said once.
function narrow(file: string): string | undefined {
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  chmodSync(file, 0o600);
  return `${file} was readable by others (mode ${mode.toString(8)}); hub set it to 600. Consider hub-mcp serve --rotate-token.`;
}

/** The token, made on first use. Two hubs making it at once end with one token (O_EXCL). */
export function readOrCreateHttpToken(paths: HubPaths): HttpToken {
  const file = paths.httpToken;
  const existing = readToken(file);
  if (existing !== undefined) {
    const repaired = narrow(file);
    return { token: existing, file, created: false, ...(repaired && { repaired }) };
  }
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const token = fresh();
  try {
    writePrivate(file, `${token}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateHttpToken(paths);
    throw new HubError('STORE_UNWRITABLE', `Cannot write the HTTP token ${file}: ${(error as Error).message}.`);
  }
  return { token, file, created: true };
}

/** A new token replaces the old one atomically: clients holding the old one get 401 from then on. */
export function rotateHttpToken(paths: HubPaths): HttpToken {
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const token = fresh();
  try {
    writeFileAtomic(paths.httpToken, `${token}\n`);
  } catch (error) {
    throw new HubError(
      'STORE_UNWRITABLE',
      `Cannot write the HTTP token ${paths.httpToken}: ${(error as Error).message}.`,
    );
  }
  return { token, file: paths.httpToken, created: true };
}
