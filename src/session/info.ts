// What a session says of itself in the listing of sessions (hub://sessions, the dashboard, status).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

export interface SessionInfo {
  readonly id: string;
  readonly transport: 'stdio' | 'socket' | 'http';
  /** The client's name and version from its initialize, once it has sent it. */
  readonly client?: { readonly name: string; readonly version: string };
  readonly cwd?: string;
  /** When it attached (ISO time). */
  readonly since: string;
}

/** The session's info, read when asked: the client's name arrives with its initialize. */
export function sessionInfo(
  id: string,
  server: Server,
  options: { readonly transport: SessionInfo['transport']; readonly cwd?: string | undefined },
): () => SessionInfo {
  const since = new Date().toISOString();
  return () => {
    const version = server.getClientVersion();
    return {
      id,
      transport: options.transport,
      ...(version && { client: { name: version.name, version: version.version } }),
      ...(options.cwd !== undefined && { cwd: options.cwd }),
      since,
    };
  };
}
