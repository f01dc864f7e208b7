// POSIX shell quoting, written once: for command lines hub executes (pty.ts) and the ones it
// only shows to a person (consent, results, client config snippets).

/** A word in single quotes: what a POSIX shell reads back unchanged, always quoted. */
export const shellQuoteAlways = (word: string): string => `'${word.replaceAll("'", `'\\''`)}'`;

/** A word a POSIX shell reads back unchanged, quoted only where needed (for display). */
export const shellQuote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuoteAlways(word));

/** A command line for a person to read: quoted only where needed. */
export const formatCommandLine = (command: string, args: readonly string[]): string =>
  [command, ...args].map(shellQuote).join(' ');
