// What `hub config` and `hub import` need from the outside world, injected for tests.
import type { CliIo } from './command.js';
import type { ClientContext } from '../clients/types.js';

/** What `hub config` and `hub import` need from the outside world, injected for tests. */
export interface CommandDeps {
  readonly io: CliIo;
  readonly context: ClientContext;
  /** dist/server.js as clients should start it. */
  readonly serverJs?: string;
  readonly nodePath?: string;
  /** Asks a yes/no question on a terminal; undefined when there is no TTY. */
  readonly confirm?: (question: string) => Promise<boolean>;
}
