import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { HubError } from '../errors.js';

const SERVER_NAME = /^[a-z][a-z0-9-]{0,19}$/;
const RESERVED = new Set(['registry', 'hub', 'process']);
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** SPEC "Tool names": short lowercase names, three reserved. */
export function checkServerName(name: string, derivedFrom?: string): string {
  const origin = derivedFrom ? ` (derived from "${derivedFrom}")` : '';
  if (!SERVER_NAME.test(name)) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "name" "${name}"${origin} is not a valid server name: use 1–20 characters, a lowercase letter first, then lowercase letters, digits or "-" (for example "memory").`,
    );
  }
  if (RESERVED.has(name)) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "name" "${name}"${origin} is reserved (registry, hub and process are hub's own); pick another name with "name".`,
    );
  }
  return name;
}

export function checkEnvKeys(env: Readonly<Record<string, string>>): void {
  const bad = Object.keys(env).filter(key => !ENV_KEY.test(key));
  if (bad.length > 0) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "env" has invalid variable names (${bad.map(k => JSON.stringify(k)).join(', ')}): use letters, digits and "_", not starting with a digit.`,
    );
  }
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** A command must exist now: an absolute path, or a name found on PATH. Returns where it was found. */
export async function resolveCommand(command: string, pathEnv: string | undefined): Promise<string> {
  const hint = /\s/.test(command.trim()) ? ' Put the program alone in "command" and its arguments in "args".' : '';
  if (isAbsolute(command)) {
    if (await isExecutableFile(command)) return command;
    throw new HubError('INVALID_INPUT', `Field "command" "${command}" is not an executable file.${hint}`);
  }
  if (command.includes('/') || command.trim() === '') {
    throw new HubError(
      'INVALID_INPUT',
      `Field "command" "${command}" must be a program name found on PATH or an absolute path (relative paths depend on hub's working directory).`,
    );
  }
  for (const dir of (pathEnv ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    if (await isExecutableFile(candidate)) return candidate;
  }
  throw new HubError(
    'INVALID_INPUT',
    `Field "command" "${command}" was not found on PATH; give an absolute path or install it first.${hint}`,
  );
}

// For showing a command line to a person (consent, results): quoted only where needed.
export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args]
    .map(part => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}
