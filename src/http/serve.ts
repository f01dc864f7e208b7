// The foreground `hub serve`: this process as the shared hub, also listening for Streamable HTTP.
import { statSync } from 'node:fs';
import { DEFAULT_HTTP_PORT } from '../core/http-endpoint.js';
import { openContext } from '../store/open-context.js';
import { readOrCreateHttpToken, rotateHttpToken, type HttpToken } from '../store/http-token.js';
import type { Logger } from '../core/logger.js';
import type { HubPaths } from '../core/paths.js';
import { runSharedHub, type SharedHub } from '../shared-hub/daemon.js';
import { stopSharedHub } from '../hub-link/control.js';
import { sharedHubPaths } from '../hub-link/paths.js';
import { isLiveHub, readHubRecord } from '../hub-link/record.js';
import type { Store } from '../store/store.js';
import type { HubConfig } from '../core/config/config.js';
import { isLoopback } from './guard.js';
import { listenHttp } from './listener.js';
import { platform } from '../core/platform/platform.js';

export { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from '../core/http-endpoint.js';

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly rotateToken: boolean;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the server should stop (Ctrl-C); the CLI passes the signals. */
  readonly stopped: Promise<string>;
}

// The token as the file holds it now: re-read when the file changes, so `hub serve
// --rotate-token` (or a new file) applies to a running server without a restart.
function tokenFollower(file: string, first: string, readToken: () => string): () => string {
  let token = first;
  let stamp = '';
  return () => {
    try {
      const stat = statSync(file);
      const now = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
      if (now !== stamp) {
        stamp = now;
        token = readToken();
      }
    } catch {
      // A deleted or damaged file keeps the last good token: a typo must not open the door.
    }
    return token;
  };
}

/**
 * The foreground `hub serve`: this process becomes the shared hub of HUB_HOME (a background one
 * hands over; its entries re-attach here), and also listens for Streamable HTTP until stopped.
 * stdio entries and HTTP sessions share one core: one child per server.
 */
export async function runServe(options: ServeOptions): Promise<number> {
  const { config, log, store } = openContext({ log: { name: 'hub-serve', stderr: false } });
  for (const warning of config.warnings) log.warn(warning);
  const made = options.rotateToken ? rotateHttpToken(config.paths) : readOrCreateHttpToken(config.paths);
  if (made.repaired) options.err(`hub-mcp serve: warning: ${made.repaired}\n`);
  // Another `hub serve` is the shared hub already: a person started it, so it is not taken over.
  const serving = runningServe(config.home);
  if (serving !== undefined) {
    if (options.rotateToken) {
      options.out(
        `hub-mcp serve already runs (pid ${serving}); it takes the new token at once (new: clients with the old one get 401).\n`,
      );
      return 0;
    }
    options.err(
      `hub-mcp serve: it already runs for this HUB_HOME (pid ${serving}); stop it first (Ctrl-C there, or hub-mcp stop).\n`,
    );
    return 1;
  }
  // As the stdio hub does (server.ts): one failing child or request must not end every session.
  const uncaught = (error: unknown) => log.error({ err: error }, 'uncaught error (hub-mcp serve keeps running)');
  process.on('uncaughtException', uncaught);
  process.on('unhandledRejection', uncaught);
  try {
    return await serveUntilStopped(config, store, options, made, log, config.paths);
  } finally {
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', uncaught);
  }
}

/** The pid of a `hub serve` that is this HUB_HOME's shared hub now, if one is. */
function runningServe(home: string): number | undefined {
  const record = readHubRecord(sharedHubPaths(home).record);
  if (!record || record.pid === process.pid || !isLiveHub(record)) return undefined;
  return platform().processes.commandLine(record.pid)?.split(' ').includes('serve') ? record.pid : undefined;
}

// A background shared hub is asked to hand over; an entry may start a new one in between (it
// re-attaches at once), so this takes a few tries.
async function takeOver(
  config: HubConfig,
  store: Store,
  log: Logger,
  listen: (core: Parameters<typeof listenHttp>[0]) => Promise<{ close(): Promise<void> }>,
): Promise<SharedHub> {
  const paths = sharedHubPaths(config.home);
  for (let attempt = 1; ; attempt++) {
    await stopSharedHub(paths, log, 'hub-mcp serve takes over');
    try {
      return await runSharedHub({ config, log, store, extensions: [listen], idleExit: false });
    } catch (error) {
      if (attempt >= 3 || !/already runs/.test((error as Error).message)) throw error;
    }
  }
}

async function serveUntilStopped(
  config: HubConfig,
  store: Store,
  options: ServeOptions,
  made: HttpToken,
  log: Logger,
  paths: HubPaths,
): Promise<number> {
  let listener: Awaited<ReturnType<typeof listenHttp>> | undefined;
  const shared = await takeOver(config, store, log, async core => {
    listener = await listenHttp(core, {
      host: options.host,
      port: options.port,
      log,
      sessionIdleMs: config.serve.sessionIdleMs,
      maxSessions: config.serve.maxSessions,
      token: tokenFollower(made.file, made.token, () => readOrCreateHttpToken(paths).token),
    });
    return listener;
  });
  if (!listener) throw new Error('the HTTP listener did not start');
  const exposed = isLoopback(options.host)
    ? 'this machine only (127.0.0.1)'
    : `the network (${options.host}): anyone who can reach it still needs the token`;
  options.out(
    [
      `hub serves MCP over Streamable HTTP at ${listener.url}`,
      `Reachable from ${exposed}. Every request needs "Authorization: Bearer <token>".`,
      `Token: ${made.file}${made.created ? (options.rotateToken ? ' (new: clients with the old one get 401)' : ' (created now)') : ''}`,
      '',
      'Add it to a client that connects by URL (writes the URL and the token header):',
      `  hub-mcp config claude-code --http${options.port === DEFAULT_HTTP_PORT ? '' : ` --port ${listener.port}`} --write`,
      'or by hand, e.g. Claude Code:',
      `  claude mcp add --scope user --transport http hub ${listener.url} --header "Authorization: Bearer $(cat ${made.file})"`,
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );
  // Ctrl-C, or `hub stop` / a newer hub ending the shared hub.
  const reason = await Promise.race([options.stopped, shared.done.then(() => 'the shared hub was stopped')]);
  log.info({ reason }, 'hub-mcp serve stopping');
  await shared.shutdown(reason);
  options.out('hub-mcp serve stopped.\n');
  return 0;
}
