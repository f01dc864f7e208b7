// The shared hub process: one core serving every entry on a unix socket, idle exit, hand-over.
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { connectLines, createHubCore, createSession, type Hub, type HubCore } from '../hub.js';
import type { HubConfig } from '../core/config/config.js';
import type { Logger } from '../core/logger.js';
import { HUB_VERSION } from '../core/version.js';
import type { Store } from '../store/store.js';
import { recordChildGroups, reapOrphanGroups } from '../hub-link/children.js';
import { readFirstLine, refuse } from './first-line.js';
import { sharedHubPaths } from '../hub-link/paths.js';
import { chooseSocket, releaseSocket } from '../hub-link/socket-folder.js';
import { HelloSchema } from '../hub-link/hello.js';
import { HEARTBEAT_MS, HELLO_MAX_BYTES, type StatusReport, type UiReply } from '../hub-link/protocol.js';
import type { Dashboard } from '../dashboard/server.js';
import { isLiveHub, myHubRecord, readHubRecord, removeMyHubRecord, writeHubRecord } from '../hub-link/record.js';
import { platform } from '../core/platform/platform.js';

/** Something else served from the same hub (Streamable HTTP, the dashboard), plugged in at start. */
export type SharedHubExtension = (core: HubCore) => Promise<{ close(): Promise<void> }>;

export interface SharedHubOptions {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  readonly extensions?: readonly SharedHubExtension[];
  /** Exit after sharedHub.idleMs with no session (a background hub); `hub serve` stays up. */
  readonly idleExit?: boolean;
}

export interface SharedHub {
  readonly core: HubCore;
  readonly socket: string;
  /** Resolves once the hub has shut down (idle, `hub stop`, a signal, a newer hub). */
  readonly done: Promise<void>;
  shutdown(reason: string): Promise<void>;
}

interface Attached {
  readonly hub: Hub;
  readonly entryPid: number;
  readonly cwd: string;
  readonly since: string;
}

const commandOf = (pid: number): string => platform().processes.commandLine(pid)?.slice(0, 200) ?? '?';

/** The shared hub (docs/shared-hub.md): one per HUB_HOME, serving every entry on a unix socket. */
export async function runSharedHub({
  config,
  log,
  store,
  extensions = [],
  idleExit = true,
}: SharedHubOptions): Promise<SharedHub> {
  const paths = sharedHubPaths(config.home);
  const running = readHubRecord(paths.record);
  if (running && running.pid !== process.pid && isLiveHub(running))
    throw new Error(`a shared hub already runs for ${config.home} (pid ${running.pid})`);
  await reapOrphanGroups(paths.children, log);

  const socketChoice = chooseSocket(paths, (passed, socket) =>
    log.warn({ passed, socket }, 'the shared hub socket is not put where others can write'),
  );
  const socketPath = socketChoice.socket;
  rmSync(socketPath, { force: true }); // a dead hub's socket (no live hub is recorded)
  // Half-open: an entry whose client closed ends its side, and hears the end of ours only once
  // its session has closed (usage counted, children of per-session servers stopped), as the
  // in-process hub closed before it exited.
  const net: NetServer = createServer({ allowHalfOpen: true });
  // Created 0600 from the start (umask), not chmod-ed after others could connect.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      net.once('error', reject);
      net.listen(socketPath, () => (net.off('error', reject), resolve()));
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);

  const core = createHubCore({ config, log, store });
  const children = recordChildGroups(paths.children, log);
  const attached = new Set<Attached>();
  const sockets = new Set<Socket>();
  const record = myHubRecord(HUB_VERSION, socketPath);
  writeHubRecord(paths.record, record);

  let closing: Promise<void> | undefined;
  let finished!: () => void;
  const done = new Promise<void>(resolve => (finished = resolve));
  const plugged: { close(): Promise<void> }[] = [];

  // The dashboard (`hub ui`), started on the first ask and served until the hub stops.
  let dashboard: Promise<Dashboard> | undefined;
  let dashboardOpen: Dashboard | undefined;
  // Someone is using or about to use it: a page open or a login unused, a `hub ui` being answered
  // (the dashboard still loading), or any connection still open (with no session, a command's).
  const watched = () =>
    (dashboardOpen?.inUse() ?? false) || (dashboard !== undefined && dashboardOpen === undefined) || sockets.size > 0;

  let idleTimer: NodeJS.Timeout | undefined;
  // Idle means no session and no dashboard page open or about to be (a login link not used yet):
  // a person watching the page keeps the hub up.
  const idleFire = () => {
    idleTimer = undefined;
    if (watched()) idleTimer = setTimeout(idleFire, Math.max(config.sharedHub.idleMs, 1_000));
    else void shutdown(`idle for ${config.sharedHub.idleMs} ms`);
  };
  const idleCheck = (count: number) => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (count === 0 && !closing && idleExit) idleTimer = setTimeout(idleFire, config.sharedHub.idleMs);
  };
  core.onSessionsChanged(idleCheck);

  const status = (): StatusReport => ({
    pid: process.pid,
    version: HUB_VERSION,
    startedAt: record.startedAt,
    socket: socketPath,
    sessions: [...attached].map(a => {
      const client = a.hub.server.getClientVersion()?.name;
      return { entryPid: a.entryPid, cwd: a.cwd, since: a.since, ...(client !== undefined && { client }) };
    }),
    children: children.groups().map(pgid => ({ pgid, command: commandOf(pgid) })),
    ...(dashboardOpen && { dashboard: dashboardOpen.url }),
  });

  const openDashboard = async (host: string, port: number): Promise<UiReply> => {
    const already = dashboard !== undefined;
    if (!dashboard) {
      const starting = (async () => {
        const { createDashboard } = await import('../dashboard/server.js');
        return createDashboard(
          {
            config,
            log,
            store,
            servers: core.servers,
            processes: await core.processes(),
            sessions: () =>
              core.sessions().map(s => ({
                id: s.id,
                client: s.client?.name,
                transport: s.transport,
                startedAt: s.since,
                cwd: s.cwd,
              })),
          },
          { host, port },
        );
      })();
      dashboard = starting;
      try {
        const opened = await starting;
        if (closing) await opened.close();
        else {
          dashboardOpen = opened;
          plugged.push(opened);
        }
      } catch (error) {
        dashboard = undefined;
        const message =
          (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
            ? `--port ${port} is in use on ${host}; give another, or leave --port out for a free one.`
            : `the dashboard could not start: ${(error as Error).message}`;
        return { hub: 'error', message };
      }
    }
    // Another ask started it meanwhile: its failure was told to that ask; this one just tries again.
    const opened = await dashboard.catch(() => undefined);
    if (!opened) return { hub: 'error', message: 'the dashboard could not start; run hub-mcp ui again.' };
    if (closing) return { hub: 'error', message: 'the shared hub is stopping; run hub-mcp ui again.' };
    return { hub: 'ui', url: opened.url, login: opened.oneTimeLoginUrl(), already };
  };

  const serveSession = async (
    socket: Socket,
    hello: Extract<ReturnType<typeof HelloSchema.parse>, { hub: 'session' }>,
    rest: Buffer,
  ) => {
    const hub = createSession(core, { transport: 'socket', cwd: hello.cwd, env: hello.env, entryPid: hello.pid });
    const entry: Attached = { hub, entryPid: hello.pid, cwd: hello.cwd, since: new Date().toISOString() };
    attached.add(entry);
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      attached.delete(entry);
      log.info({ entryPid: hello.pid, why }, 'session closed');
      hub
        .close()
        .catch(error => log.warn({ err: error }, 'closing a session failed'))
        .finally(() => socket.end());
    };
    // An entry gone (client closed, entry SIGKILLed) ends the socket: the session goes with it.
    socket.once('end', () => end('entry ended'));
    socket.once('close', () => end('socket closed'));
    socket.on('error', () => socket.destroy());
    socket.write(`${JSON.stringify({ hub: 'welcome', version: HUB_VERSION, pid: process.pid })}\n`);
    await connectLines(hub, socket, socket, {
      replay: rest,
      answered: new Set(hello.answered),
      ...(hello.listed !== undefined && { listed: hello.listed }),
    });
    log.info(
      {
        entryPid: hello.pid,
        entryVersion: hello.version,
        sessions: attached.size,
        ...(hello.coldStartAnswered !== undefined && { coldStartAnswered: hello.coldStartAnswered }),
      },
      'session attached',
    );
  };

  net.on('connection', socket => {
    if (closing) return socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    void (async () => {
      const first = await readFirstLine(socket, HELLO_MAX_BYTES);
      if ('refused' in first && first.refused === 'closed') return void socket.end();
      let parsed;
      try {
        parsed = 'line' in first ? HelloSchema.safeParse(JSON.parse(first.line)) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!('line' in first) || !parsed?.success) {
        // Said in the log and to the entry, which runs the hub in-process instead of trying again.
        const message =
          'refused' in first
            ? `the hello line is over ${HELLO_MAX_BYTES} bytes`
            : `the hello line is not one this hub (${HUB_VERSION}) reads`;
        log.warn({ message }, 'a connection to the shared hub was refused');
        return refuse(socket, `${JSON.stringify({ hub: 'error', message })}\n`);
      }
      const hello = parsed.data;
      switch (hello.hub) {
        case 'session':
          return serveSession(socket, hello, first.rest);
        case 'heartbeat': {
          const beat = setInterval(() => socket.write('\n'), HEARTBEAT_MS);
          socket.once('close', () => clearInterval(beat));
          socket.resume();
          return;
        }
        case 'status':
          socket.end(`${JSON.stringify(status())}\n`);
          return;
        case 'stop':
          socket.end(`${JSON.stringify({ hub: 'stopping', pid: process.pid })}\n`);
          void shutdown(hello.reason);
          return;
        case 'ui':
          socket.end(`${JSON.stringify(await openDashboard(hello.host, hello.port))}\n`);
          return;
      }
    })().catch(error => {
      log.error({ err: error }, 'a connection to the shared hub failed');
      socket.destroy();
    });
  });

  const shutdown = (reason: string): Promise<void> => {
    closing ??= (async () => {
      log.info({ reason, sessions: attached.size }, 'shared hub shutting down');
      clearTimeout(idleTimer);
      // First: nobody finds or reaches this hub any more; an entry that looks now starts a new one.
      net.close();
      removeMyHubRecord(paths.record);
      releaseSocket(socketChoice, paths.record);
      await Promise.allSettled(plugged.map(p => p.close()));
      await core.close();
      for (const socket of sockets) socket.destroy();
      children.stop();
      finished();
    })();
    return closing;
  };

  try {
    for (const extension of extensions) plugged.push(await extension(core));
  } catch (error) {
    // A listener that cannot start (a port taken) leaves no hub half up behind it.
    await shutdown('an extension could not start');
    throw error;
  }
  idleCheck(core.sessionCount());
  log.info({ socket: socketPath, version: HUB_VERSION, idleMs: config.sharedHub.idleMs }, 'shared hub started');
  return { core, socket: socketPath, done, shutdown };
}
