// Servers found in a client registered in hub's store, and removed from the client afterwards.
import { isDeepStrictEqual } from 'node:util';
import { deriveServerName } from '../registry/sources/server-name.js';
import type { ServerRecord } from '../store/schema.js';
import { openContext } from '../store/open-context.js';
import { readDocument, render, withServers } from './document.js';
import { deleteMember } from './json-edit.js';
import { deleteTomlTable } from './toml-edit.js';
import type { FoundServer } from './read-servers.js';
import type { ClientContext, ClientId } from './types.js';
import { backupFile, writeConfigFile } from './write-file.js';

export interface ImportedServer {
  readonly name: string;
  readonly key: string;
  readonly file: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly envKeys: readonly string[];
  /** Keys whose value is a client variable (`${input:x}`, `${env:X}`, `${X}`) that hub passes on unexpanded. */
  readonly variableKeys: readonly string[];
  readonly cwd?: string;
  /** A remote server: its URL and the names of its headers (never their values). */
  readonly url?: string;
  readonly headerKeys?: readonly string[];
  /** Headers holding a client variable hub does not fill (`${input:x}`). */
  readonly headerVariables?: readonly string[];
}

export interface ImportOutcome {
  readonly imported: ImportedServer[];
  /** Already in hub: the same command (safe to drop from the client) or a different server of that name. */
  readonly existing: { key: string; name: string; file: string; same: boolean }[];
  /**
   * Servers now behind hub: imported now, or imported before with the same command. `started`
   * says whether hub has ever started it (its tools were listed); only those may leave the client.
   */
  readonly candidates: { server: FoundServer; name: string; started: boolean }[];
}

const sameLaunch = (record: ServerRecord, server: FoundServer): boolean =>
  server.remote
    ? record.remote?.url === server.remote.url &&
      isDeepStrictEqual(record.remote.headers ?? {}, server.remote.headers ?? {})
    : sameCommand(record, server);

const sameCommand = (record: ServerRecord, server: FoundServer): boolean =>
  record.command === server.command &&
  isDeepStrictEqual(record.args, server.args) &&
  isDeepStrictEqual(record.env, server.env);

// A client key as a hub server name (`GitHub` → github, `mcp-server-git` → git), unique in this import.
function nameFor(key: string, used: Set<string>): string {
  const base = deriveServerName(key);
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base.slice(0, 20 - String(n).length - 1)}-${n}`;
  used.add(name);
  return name;
}

/** Registers each found server in hub's store (command mode), skipping names hub already has. */
export async function registerServers(
  found: readonly FoundServer[],
  client: ClientId,
  context: ClientContext,
  now: Date = new Date(),
): Promise<ImportOutcome> {
  const { store } = openContext({ env: context.env, log: 'silent' });
  const used = new Set<string>();
  const named = found.map(server => ({ server, name: nameFor(server.key, used) }));
  return store.update(data => {
    const outcome: ImportOutcome = { imported: [], existing: [], candidates: [] };
    let order = Math.max(0, ...Object.values(data.servers).map(record => record.order));
    for (const { server, name } of named) {
      const file = server.document.target.file;
      const current = data.servers[name];
      if (current) {
        const same = sameLaunch(current, server);
        outcome.existing.push({ key: server.key, name, file, same });
        if (same) outcome.candidates.push({ server, name, started: current.toolsUpdatedAt !== undefined });
        continue;
      }
      data.servers[name] = {
        name,
        command: server.command,
        args: server.args,
        env: server.env,
        ...(server.cwd !== undefined && { cwd: server.cwd }),
        mode: 'command',
        ...(server.remote && { kind: 'remote' as const, remote: server.remote }),
        installedAt: now.toISOString(),
        order: ++order,
        autoStart: false,
        source: `import:${client}`,
      };
      outcome.imported.push({
        name,
        key: server.key,
        file,
        command: server.command,
        args: server.args,
        envKeys: Object.keys(server.env),
        variableKeys: Object.keys(server.env).filter(key => /\$\{[^}]+\}/.test(server.env[key]!)),
        ...(server.remote && { url: server.remote.url, headerKeys: Object.keys(server.remote.headers ?? {}) }),
        // hub fills ${NAME} in a header from the environment; a client's other variables it cannot.
        ...(server.remote && {
          headerVariables: Object.entries(server.remote.headers ?? {})
            .filter(([, value]) => /\$\{(?![A-Za-z_][A-Za-z0-9_]*\})[^}]+\}/.test(value))
            .map(([name]) => name),
        }),
        ...(server.cwd !== undefined && { cwd: server.cwd }),
      });
      outcome.candidates.push({ server, name, started: false });
    }
    return outcome;
  });
}

/** Drops the given servers from their client files: re-read, one backup and one atomic write per file. */
export async function removeFromClient(
  servers: readonly FoundServer[],
): Promise<{ file: string; backup: string; keys: string[] }[]> {
  const byFile = new Map<string, FoundServer[]>();
  for (const server of servers)
    byFile.set(server.document.realFile, [...(byFile.get(server.document.realFile) ?? []), server]);
  const done = [];
  for (const group of byFile.values()) {
    // Fresh read: a client (Claude Code) may have rewritten its file since hub read it.
    const document = await readDocument(group[0]!.document.target);
    let data = document.data;
    for (const server of group)
      data = withServers({ ...document, data, target: server.document.target }, table => void delete table[server.key]);
    const text = render(document, data, original =>
      group.reduce<string | undefined>(
        (text, server) =>
          text === undefined
            ? undefined
            : document.target.format === 'toml'
              ? deleteTomlTable(text, server.document.target.serversPath, server.key)
              : deleteMember(text, server.document.target.serversPath, server.key),
        original,
      ),
    );
    const backup = await backupFile(document.realFile);
    await writeConfigFile(document.realFile, text);
    done.push({ file: group[0]!.document.target.file, backup, keys: group.map(server => server.key) });
  }
  return done;
}
