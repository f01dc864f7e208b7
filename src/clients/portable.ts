// The launch written into a shared project file: the command name, not this machine's paths.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveExecutable } from '../core/executable.js';
import { COMMAND_NAME, PACKAGE_NAME } from '../core/package-name.js';
import type { ClientContext, Launch } from './types.js';

/** The launch for a file other people share (project scope), and what to tell the person. */
export interface PortableLaunch {
  readonly launch: Launch;
  /** Set when the portable command could not be used: why, and what to do. */
  readonly warning?: string;
}

const realpathOrSelf = (file: string): string => {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
};

// Ours: the same dist/server.js, or a server.js whose package.json (one folder up from dist/)
// is this package (another install of hub). Another program of that name is neither.
function isOurs(found: string, serverJs: string): boolean {
  const real = realpathOrSelf(found);
  if (real === realpathOrSelf(serverJs)) return true;
  try {
    const ownName = (
      JSON.parse(readFileSync(join(dirname(dirname(serverJs)), 'package.json'), 'utf8')) as { name?: string }
    ).name;
    const theirs = JSON.parse(readFileSync(join(dirname(dirname(real)), 'package.json'), 'utf8')) as {
      name?: string;
      bin?: unknown;
    };
    return (
      ownName !== undefined &&
      theirs.name === ownName &&
      typeof theirs.bin === 'object' &&
      theirs.bin !== null &&
      COMMAND_NAME in theirs.bin
    );
  } catch {
    return false;
  }
}

/**
 * A project file (.mcp.json, .cursor/mcp.json...) is committed and read on other machines, so it
 * says the command name rather than this machine's node and dist paths: used when the command on PATH is this
 * package; otherwise the absolute launch stays, with a warning saying what to do.
 */
export function portableLaunch(context: ClientContext, serverJs: string, absolute: Launch): PortableLaunch {
  const found = resolveExecutable(COMMAND_NAME, context.env.PATH, context.cwd);
  if (found && isOurs(found, serverJs)) return { launch: { command: COMMAND_NAME, args: [] } };
  const paths = 'This project file now holds absolute paths of this machine';
  if (found)
    return {
      launch: absolute,
      warning: `${paths}: the "${COMMAND_NAME}" on PATH (${found}) is another program, not this MCP hub. Put this hub first on PATH (npm install -g ${PACKAGE_NAME}, or a symlink to ${serverJs} named ${COMMAND_NAME} in an earlier PATH folder) or edit the command by hand before committing the file.`,
    };
  return {
    launch: absolute,
    warning: `${paths}: "${COMMAND_NAME}" is not on PATH. Install it (npm install -g ${PACKAGE_NAME}, or npm link in a clone) and re-run this command so the file says "command": "${COMMAND_NAME}", or edit it by hand before committing.`,
  };
}
