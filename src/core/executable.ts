// Whether a file is executable, and where a command would be found on PATH (as execvp does).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `command` would be found (as execvp does), or undefined when it would not. */
export function resolveExecutable(command: string, pathValue: string | undefined, cwd: string): string | undefined {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(file) ? file : undefined;
  }
  for (const dir of (pathValue ?? '').split(delimiter)) {
    // An empty PATH entry means the current directory.
    const file = join(dir === '' ? cwd : resolve(cwd, dir), command);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
