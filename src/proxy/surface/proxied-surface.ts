// The installed servers' prompts, resources and logging, proxied: subscriptions, levels, listings.
import {
  CompleteResultSchema,
  EmptyResultSchema,
  ErrorCode,
  GetPromptResultSchema,
  ReadResourceResultSchema,
  type LoggingLevel,
  type LoggingMessageNotification,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { SurfaceEvents as ChildSurfaceEvents } from '../child/surface.js';
import type { ClientSide } from '../sessions/client-side.js';
import type { ProxiedSurface } from './types.js';
import type { ServerSlot } from '../slots/server-slot.js';
import type { Slots } from '../slots/slots.js';
import type { SurfaceWriter } from '../slots/slot-store.js';
import { forwardRequest } from './forward.js';
import type { SurfaceListing } from './routes.js';
import { childLogMessage, levelAtLeast } from '../sessions/log-relay.js';
import { listSkills } from '../child/skills-intake.js';

type Json = Record<string, unknown>;

/** Longest a start waits for a child to take the log level and subscriptions. */
const SETUP_TIMEOUT_MS = 5_000;

export interface SurfaceDeps {
  readonly slots: Slots;
  readonly listing: SurfaceListing;
  readonly client: ClientSide;
  readonly log: Logger;
  readonly timeoutMs: number;
  readonly surfaceListed: SurfaceWriter;
  /** Re-reads the store when another hub changed it (a server installed elsewhere). */
  readonly refresh: () => Promise<void>;
}

/** The proxied surface, and the hooks the slots and children call (surfaceSeen, events). */
export function createProxiedSurface(deps: SurfaceDeps): {
  surface: ProxiedSurface;
  surfaceSeen: (slot: ServerSlot, conn: NonNullable<ServerSlot['conn']>, reason: 'start' | 'changed') => Promise<void>;
  events: ChildSurfaceEvents;
} {
  const { slots, listing, client, log, timeoutMs } = deps;
  let level: LoggingLevel | undefined;
  // URIs the client subscribed to, by server: sent again to a child that restarts.
  const subscribed = new Map<string, Set<string>>();

  const slotOf = (server: string): ServerSlot => {
    const slot = slots.get(server);
    if (!slot || slots.closed)
      throw new RpcError(ErrorCode.InternalError, `Server "${server}" is no longer installed or hub is shutting down.`);
    return slot;
  };

  /** The one server that answers for uri; a clear error when none or several do. */
  const ownerOf = async (uri: string): Promise<string> => {
    let owners = listing.resources.owners(uri);
    if (owners.length === 0) {
      await deps.refresh();
      owners = listing.resources.owners(uri);
    }
    if (owners.length === 1) return owners[0]!;
    if (owners.length === 0)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `No installed server lists the resource ${uri} or a template it matches; resources/list and resources/templates/list show what can be read.`,
      );
    throw new RpcError(
      ErrorCode.InvalidParams,
      `The resource ${uri} is offered by more than one server (${owners.map(name => `"${name}"`).join(', ')}); hub does not pick one for you. Uninstall one of them, or read it through a client connected to that server directly.`,
    );
  };

  const resources: ProxiedSurface['resources'] = {
    resources: () => Promise.resolve(listing.resources.resources as Resource[]),
    templates: () => Promise.resolve(listing.resources.templates as ResourceTemplate[]),
    owns: uri => listing.resources.owners(uri).length > 0,
    async read(uri, call) {
      const slot = slotOf(await ownerOf(uri));
      // A renamed ui:// URI (listing/app-uris.ts) is read by the child's own and answered as shown.
      const own = listing.resources.childUri(uri);
      const request = { method: 'resources/read', params: { uri: own }, needs: 'resources' } as const;
      const result = await forwardRequest(slot, request, ReadResourceResultSchema, call, timeoutMs);
      if (own === uri) return result;
      return { ...result, contents: result.contents.map(item => (item.uri === own ? { ...item, uri } : item)) };
    },
    async subscribe(uri) {
      const server = await ownerOf(uri);
      const request = { method: 'resources/subscribe', params: { uri }, needs: 'resources' } as const;
      const slot = slotOf(server);
      await forwardRequest(slot, request, EmptyResultSchema, { signal: AbortSignal.timeout(timeoutMs) }, timeoutMs);
      const uris = subscribed.get(server) ?? new Set();
      subscribed.set(server, uris.add(uri));
    },
    async unsubscribe(uri) {
      const owners = listing.resources.owners(uri);
      for (const server of owners) {
        if (!subscribed.get(server)?.delete(uri)) continue;
        // A stopped child has no subscription left to end: nothing is started for this.
        const conn = slots.get(server)?.conn;
        if (conn?.capabilities.resources?.subscribe)
          await conn.request({ method: 'resources/unsubscribe', params: { uri } }, EmptyResultSchema, {
            timeout: timeoutMs,
          });
      }
    },
    async complete(params, call) {
      if (params.ref.type !== 'ref/resource') return undefined;
      const uri = params.ref.uri;
      const owners = listing.resources.templateOwners(uri);
      if (owners.length === 0 && listing.resources.owners(uri).length === 0) return undefined;
      const server = owners.length === 1 ? owners[0]! : await ownerOf(uri);
      const request = { method: 'completion/complete', params: params as Json, needs: 'completions' } as const;
      return forwardRequest(slotOf(server), request, CompleteResultSchema, call, timeoutMs);
    },
  };

  const surface: ProxiedSurface = {
    resources,
    prompts: mode => listing.prompts.lists[mode],
    async getPrompt(name, args, call) {
      let route = listing.prompts.byName.get(name);
      if (!route) {
        await deps.refresh();
        route = listing.prompts.byName.get(name);
      }
      if (!route)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Unknown prompt: ${name}. Call prompts/list to see the prompts of the installed servers.`,
        );
      const params = { name: route.prompt, ...(args && { arguments: args }) };
      const request = { method: 'prompts/get', params, needs: 'prompts' } as const;
      return forwardRequest(slotOf(route.server), request, GetPromptResultSchema, call, timeoutMs);
    },
    async completePrompt(params, call) {
      if (params.ref.type !== 'ref/prompt') return undefined;
      const route = listing.prompts.byName.get(params.ref.name);
      if (!route) return undefined;
      const forwarded = { ...params, ref: { type: 'ref/prompt', name: route.prompt } };
      const request = { method: 'completion/complete', params: forwarded, needs: 'completions' } as const;
      return forwardRequest(slotOf(route.server), request, CompleteResultSchema, call, timeoutMs);
    },
    async setLogLevel(next) {
      // Shared by many sessions: the most verbose any asked for; each session filters its own.
      level = client.logLevel?.() ?? next;
      await Promise.allSettled([...slots.values()].map(slot => slot.conn && applyLevel(slot.name, slot.conn)));
    },
  };

  const applyLevel = async (server: string, conn: NonNullable<ServerSlot['conn']>, timeout = timeoutMs) => {
    if (level === undefined || !conn.capabilities.logging) return;
    await conn
      .request({ method: 'logging/setLevel', params: { level } }, EmptyResultSchema, { timeout })
      .catch(error => log.debug({ server, err: errorMessage(error) }, 'the server refused logging/setLevel'));
  };

  // One listing at a time per server, in the order they were asked for.
  const listings = new WeakMap<ServerSlot, Promise<void>>();
  const relist = (slot: ServerSlot, conn: NonNullable<ServerSlot['conn']>): Promise<void> => {
    const next = (listings.get(slot) ?? Promise.resolve()).then(async () => {
      try {
        const { surface: listed, issues } = await conn.listSurface(timeoutMs);
        // A child that offers skills (docs/skills.md); a failed skills/list keeps the skills listed before.
        const kept = slot.record.surface?.skills;
        const skills = await listSkills(conn, slot.name, timeoutMs).catch((error: Error) => ({
          skills: kept,
          issues: [`skills/list failed (${errorMessage(error)}); the skills listed before stay`],
        }));
        if (skills?.skills) listed.skills = skills.skills;
        issues.push(...(skills?.issues ?? []));
        if (issues.length > 0)
          log.warn({ server: slot.name, issues }, 'some prompts or resources of this server were skipped');
        if (await deps.surfaceListed(slot, listed)) listing.rebuild();
      } catch (error) {
        log.warn({ server: slot.name, err: errorMessage(error) }, 'could not list the prompts and resources');
      }
    });
    listings.set(slot, next);
    return next;
  };

  // At a start, the level and the subscriptions are set before the first call reaches the child
  // (bounded: a child that does not answer delays it by SETUP_TIMEOUT_MS at most); the lists are
  // read behind it, so a slow prompts/list never holds up a tool call, and announced when they change.
  const surfaceSeen = async (slot: ServerSlot, conn: NonNullable<ServerSlot['conn']>, reason: string) => {
    if (reason !== 'start') return relist(slot, conn);
    void relist(slot, conn);
    const timeout = Math.min(timeoutMs, SETUP_TIMEOUT_MS);
    await applyLevel(slot.name, conn, timeout);
    const uris = [...(subscribed.get(slot.name) ?? [])];
    await Promise.all(
      uris.map(uri =>
        conn
          .request({ method: 'resources/subscribe', params: { uri } }, EmptyResultSchema, { timeout })
          .catch(error => log.debug({ server: slot.name, uri, err: errorMessage(error) }, 'could not subscribe again')),
      ),
    );
  };

  const events: ChildSurfaceEvents = {
    resourceUpdated(server, uri) {
      if (!subscribed.get(server)?.has(uri) || !client.initialized()) return;
      client.sendResourceUpdated(uri).catch(() => undefined);
    },
    message(server, params: LoggingMessageNotification['params']) {
      // No initialized() check: the ClientSide knows who wants it (a 2026 request's logLevel).
      if (level !== undefined && !levelAtLeast(params.level, level)) return;
      client.sendLog(childLogMessage(server, params)).catch(() => undefined);
    },
  };

  return { surface, surfaceSeen, events };
}
