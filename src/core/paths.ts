// Every path under HUB_HOME, named in one place, so tests only move HUB_HOME.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where hub keeps everything when HUB_HOME is not set. */
export const defaultHubHome = (): string => join(homedir(), '.hub');

// Every path under HUB_HOME comes from here (pm2's paths.js idea), so tests only move HUB_HOME.
export interface HubPaths {
  readonly home: string;
  readonly db: string;
  readonly configFile: string;
  readonly logsDir: string;
  readonly hubLog: string;
  readonly processLogsDir: string;
  readonly serverLogsDir: string;
  readonly serversDir: string;
  readonly toolsDir: string;
  readonly dataDir: string;
  /** OAuth tokens and client registrations of remote servers (store/oauth-store.ts), 0700. */
  readonly authDir: string;
  /** The audit log's JSON-lines files (store/audit/log.ts), 0700. */
  readonly auditDir: string;
  /** The bearer token `hub serve` asks of every HTTP request (store/http-token.ts), 0600. */
  readonly httpToken: string;
  processLog(id: string): string;
  processExitFile(id: string): string;
  serverLog(name: string): string;
  serverDir(name: string): string;
  /** A server's own data folder, outside its package folder, so upgrades and uninstall keep it. */
  serverDataDir(name: string): string;
  /** Cached tool list of one installed server (db.json only holds when it was written). */
  toolsFile(name: string): string;
  /** One remote server's OAuth state (tokens, client registration), 0600. */
  authFile(name: string): string;
}

export function hubPaths(home: string): HubPaths {
  const logsDir = join(home, 'logs');
  const processLogsDir = join(logsDir, 'processes');
  const serverLogsDir = join(logsDir, 'servers');
  const serversDir = join(home, 'servers');
  const toolsDir = join(home, 'tools');
  const dataDir = join(home, 'data');
  return {
    home,
    db: join(home, 'db.json'),
    configFile: join(home, 'config.json'),
    logsDir,
    hubLog: join(logsDir, 'hub.log'),
    processLogsDir,
    serverLogsDir,
    serversDir,
    toolsDir,
    dataDir,
    authDir: join(home, 'auth'),
    auditDir: join(home, 'audit'),
    httpToken: join(home, 'http-token'),
    processLog: id => join(processLogsDir, `${id}.log`),
    // Written by the keeper when the command ends, so an exit is known even with no hub running.
    processExitFile: id => join(processLogsDir, `${id}.exit`),
    serverLog: name => join(serverLogsDir, `${name}.log`),
    serverDir: name => join(serversDir, name),
    serverDataDir: name => join(dataDir, name),
    toolsFile: name => join(toolsDir, `${name}.json`),
    authFile: name => join(home, 'auth', `${name}.json`),
  };
}
