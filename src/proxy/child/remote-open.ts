// Opening a remote child: its log, OAuth where it applies, and its session.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServerRecord } from '../../store/schema.js';
import { remoteAuth, signInOnRefusal, signInOr } from '../oauth/connect.js';
import type { RemoteSpec } from './remote-link.js';
import { RemoteSession, remoteFailure } from './remote-session.js';
import { START_MARKER, ServerLog } from './server-log.js';

/** What opening a remote child takes from the connect options (child/connection.ts). */
export interface RemoteOpenOptions {
  readonly record: ServerRecord;
  readonly logFile: string;
  readonly startTimeoutMs: number;
  readonly authFile?: ((name: string) => string) | undefined;
  onToolsChanged(): void;
  onSurfaceChanged(): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  onLost?(reason: string): void;
}

/** How the connection is built around the Client and the session (ChildConnection's own parts). */
export interface RemoteAssembly<C> {
  newClient(): Client;
  assemble(
    client: Client,
    session: RemoteSession,
    log: ServerLog,
    close: () => Promise<void>,
  ): { connection: C; opened(): void };
}

/**
 * Opens a remote child: its log (the URL only, never its headers), OAuth where it applies, the
 * session; a sign-in still waiting for the person is answered with its URL without a new try.
 */
export async function openRemote<C>(
  options: RemoteOpenOptions,
  remote: RemoteSpec,
  assembly: RemoteAssembly<C>,
): Promise<C> {
  const { record } = options;
  const serverLog = new ServerLog(options.logFile);
  serverLog.write(`${START_MARKER}${remote.url} at ${new Date().toISOString()} ---\n`);
  const auth = await remoteAuth(record, options.authFile);
  const waiting = auth.signIn?.required();
  if (waiting) {
    serverLog.close();
    throw waiting;
  }
  const client = assembly.newClient();
  signInOnRefusal(client, auth);
  const session = new RemoteSession(client, {
    remote,
    env: record.env,
    timeoutMs: options.startTimeoutMs,
    log: serverLog,
    ...auth,
    onLost: reason => (options.onLost ? options.onLost(reason) : options.onExit(null, null)),
    onRenewed: () => {
      options.onToolsChanged();
      options.onSurfaceChanged();
    },
  });
  const close = () => session.close().finally(() => serverLog.close());
  const { connection, opened } = assembly.assemble(client, session, serverLog, close);
  try {
    await session.open();
    opened();
    serverLog.write(`connected over ${session.transport}\n`);
  } catch (error) {
    serverLog.write(`could not connect: ${remoteFailure(error)}\n`);
    serverLog.close();
    throw await signInOr(auth, error);
  }
  return connection;
}
