// What every `hub <command>` module is: a function of its arguments and the terminal. Its own
// module, so commands and the CLI entry (cli/index.ts) import it without importing each other.

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export type CliCommand = (argv: readonly string[], io: CliIo) => Promise<number>;

/** The process's own stdout and stderr. */
export const processIo: CliIo = { out: text => process.stdout.write(text), err: text => process.stderr.write(text) };

/** How a command opens hub (store/open-context.ts): logs/hub.log only; the command prints its own one-line errors. */
export const CLI_LOG = { name: 'hub-cli', stderr: false } as const;
