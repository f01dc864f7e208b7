// Checks on what an install targets: the server name, env keys, a command that exists.
import { delimiter, isAbsolute } from 'node:path';
import { HubError } from '../../core/errors.js';
import { isExecutableFile, resolveExecutable } from '../../core/executable.js';
import { isReservedServerName, SERVER_NAME_PATTERN } from '../sources/server-name.js';

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Server names (docs/tools.md "Tool names"): short lowercase names; hub's own and `hub-*` reserved. */
export function checkServerName(name: string, derivedFrom?: string): string {
  const origin = derivedFrom ? ` (derived from "${derivedFrom}")` : '';
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "name" "${name}"${origin} is not a valid server name: use 1–20 characters, a lowercase letter first, then lowercase letters, digits or "-" (for example "memory").`,
    );
  }
  if (isReservedServerName(name)) {
    throw new HubError(
      'INVALID_INPUT',
      `Field "name" "${name}"${origin} is reserved (registry, hub, process and every name starting with "hub-" are hub's own, so no server can pass for hub); pick another name with "name".`,
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

/** A command must exist now: an absolute path, or a name found on PATH. Returns where it was found. */
export async function resolveCommand(command: string, pathEnv: string | undefined): Promise<string> {
  const hint = /\s/.test(command.trim()) ? ' Put the program alone in "command" and its arguments in "args".' : '';
  if (isAbsolute(command)) {
    if (isExecutableFile(command)) return command;
    throw new HubError('INVALID_INPUT', `Field "command" "${command}" is not an executable file.${hint}`);
  }
  if (command.includes('/') || command.trim() === '') {
    throw new HubError(
      'INVALID_INPUT',
      `Field "command" "${command}" must be a program name found on PATH or an absolute path (relative paths depend on hub's working directory).`,
    );
  }
  // Empty PATH entries are dropped: a server must not depend on hub's working directory.
  const found = resolveExecutable(
    command,
    (pathEnv ?? '').split(delimiter).filter(Boolean).join(delimiter),
    process.cwd(),
  );
  if (found !== undefined) return found;
  throw new HubError(
    'INVALID_INPUT',
    `Field "command" "${command}" was not found on PATH; give an absolute path or install it first.${hint}`,
  );
}
