// What a person sees of npm's output while `hub install` or `hub upgrade` runs.
import type { CliIo } from '../command.js';

// npm's `http fetch` lines are one per request (hundreds for a big tree): only with --verbose.
// Its `error` lines come back once, in the install error hub prints at the end.
const HTTP_LINE = /^npm (http|timing|verb|sill)\b/;
const ERROR_LINE = /^npm (error|ERR!)/;

/** What a person sees of npm's output while `hub install` / `hub upgrade` run. */
export function npmLinePrinter(io: CliIo, verbose: boolean): (line: string) => void {
  return line => {
    if (ERROR_LINE.test(line)) return;
    if (!verbose && HTTP_LINE.test(line)) return;
    io.err(`${line}\n`);
  };
}
