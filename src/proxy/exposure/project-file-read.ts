// A project's .hub.json read safely: a regular file in its repository, bounded, never waited on.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';

// Reading a project's `.hub.json` safely: it comes with a cloned repository, and one shared hub
// serves every client. A symlink to /dev/zero once grew the hub to gigabytes, and a FIFO blocked
// it for ever. So only a regular file is read (never a FIFO, device or socket; never through a
// link that leaves the repository), opened without following a last link and without waiting for
// a writer, checked on the open descriptor, and read up to a bound. Zod-free, fs only.

export type ProjectText = { readonly text: string } | { readonly problem: string };

// Bounded: a deep path cannot stall a lookup.
const MAX_DEPTH = 64;

/** The repository a project file belongs to: the nearest folder at or above it holding .git, else its own folder. */
function repositoryOf(folder: string): string {
  let at = folder;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    if (existsSync(join(at, '.git'))) return at;
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return folder;
}

const kindOf = (stat: Stats): string =>
  stat.isFIFO()
    ? 'a FIFO'
    : stat.isSocket()
      ? 'a socket'
      : stat.isCharacterDevice() || stat.isBlockDevice()
        ? 'a device'
        : stat.isDirectory()
          ? 'a folder'
          : 'not a regular file';

/** The text of file if it is a regular file of at most maxBytes in its repository; else why not. */
export function readProjectText(file: string, maxBytes: number): ProjectText {
  let target = file;
  if (lstatSync(file).isSymbolicLink()) {
    const real = realpathSync(file);
    const root = realpathSync(repositoryOf(dirname(file)));
    const inside = relative(root, real);
    if (inside.startsWith('..') || isAbsolute(inside))
      return {
        problem: `is a symbolic link to ${real}, outside its repository ${root}; only a file in the repository is read.`,
      };
    target = real;
  }
  // Told apart before opening: a device is never opened, a FIFO never waited on.
  const before = lstatSync(target);
  if (!before.isFile()) return { problem: `is ${kindOf(before)}, not a regular file; only a regular file is read.` };
  const fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    // What was opened, which may not be what was looked at a moment before.
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { problem: `is ${kindOf(opened)}, not a regular file; only a regular file is read.` };
    const tooBig = { problem: `is larger than ${maxBytes} bytes; a project file names servers only.` };
    if (opened.size > maxBytes) return tooBig;
    // One byte more than allowed tells a file that grew since fstat.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return length > maxBytes ? tooBig : { text: buffer.toString('utf8', 0, length) };
  } finally {
    closeSync(fd);
  }
}
