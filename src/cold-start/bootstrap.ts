import { hubPaths } from '../core/paths.js';
import { instructionsSectionFromDb } from '../proxy/instructions-section.js';
import { JsonLineReader } from '../wire/json-lines.js';
import type { StdinReplay } from '../wire/stdio-transport.js';
import { buildRoutes } from '../proxy/routes.js';
import { buildPromptRoutes } from '../proxy/prompt-routes.js';
import { listedResources, listedTemplates } from '../proxy/surface-lists.js';
import { pageOf, type PagedKind } from '../proxy/surface-pages.js';
import type { ServerWithTools } from '../store/schema.js';
import { pickNameMode, spellText, type NameMode } from '../core/naming.js';
import type { FastStartListing } from './listing.js';
import { claimOf, discoverResult, modernResult } from '../wire/era.js';
import { clientTakesTasks, toolsForClient } from '../proxy/task-listing.js';
import {
  leanExposure,
  leanHasProcesses,
  leanHome,
  leanIntegrity,
  leanServers,
  leanSettingsValid,
  leanToolNames,
} from '../store/cold-read.js';
import { listsEveryTool } from '../proxy/exposure.js';
import { findProjectFile } from '../proxy/project-lookup.js';
import { isDisabled } from '../proxy/tool-filter.js';

/**
 * The cold-start lane. Loading the SDK and zod costs a fresh node ~250 ms of CPU, and a client
 * waits for initialize and tools/list before it can use any tool. This answers exactly those (and
 * ping, prompts/list, resources/list and resources/templates/list; server/discover and the same
 * lists for a 2026-07-28 client) from the build-time listing and HUB_HOME while the full hub is
 * not loaded yet, and records every byte read. At hand-off the full hub replays all of it into the SDK Server, so its state
 * (client info and capabilities, initialized) is as if it had read stdin itself, and drops its own
 * responses to the requests answered here. Anything else, or anything unusual, makes this lane
 * stop answering: from then on every message waits for the full hub, in order.
 */

type Id = string | number;

export interface HandOff extends StdinReplay {
  /** stdin ended while this lane was reading. */
  readonly ended: boolean;
  /** The proxied tools this lane listed (dotted, as JSON; server.ts hands on its digest), if it listed any. */
  readonly listed?: string;
}

export interface FastStart {
  /** Resolves when the full hub is needed: tools were listed, a message needs it, or time passed. */
  readonly wanted: Promise<void>;
  handOff(): HandOff;
}

const SURFACE_METHODS: Readonly<Record<string, PagedKind>> = {
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
};

// A client that never lists tools still gets the full hub soon after starting.
const LOAD_ANYWAY_MS = 250;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isId = (id: unknown): id is Id => typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

// At least as strict as the SDK's InitializeRequestSchema on what this lane reads.
function initializeParams(params: unknown): { version: string; client: string } | undefined {
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities))
    return undefined;
  if (!Object.values(params.capabilities).every(value => value === undefined || isObject(value))) return undefined;
  const info = params.clientInfo;
  if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined;
  return { version: params.protocolVersion, client: info.name };
}

// The build's instructions plus the installed servers' section, as the full hub builds it.
function serverInstructions(
  listing: FastStartListing,
  env: NodeJS.ProcessEnv,
  mode: NameMode,
): { instructions?: string } {
  const home = leanHome(env);
  const section = home === undefined ? '' : spellText(instructionsSectionFromDb(hubPaths(home).db), mode);
  const instructions = (listing.initialize[mode].instructions ?? '') + section;
  return instructions === '' ? {} : { instructions };
}

export function startFastStart(options: {
  listing: FastStartListing;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  write: (line: string) => void;
}): FastStart {
  const { listing, env, stdin, write } = options;
  const chunks: Buffer[] = [];
  const answered = new Set<Id>();
  let mode: NameMode | undefined;
  let client: string | undefined;
  let initialized = false;
  // Whether the client speaks tasks decides how task-required tools are listed (proxy/task-listing.ts).
  let takesTasks = false;
  let deferring = false;
  let ended = false;
  let listed: string | undefined;
  let want!: () => void;
  const wanted = new Promise<void>(resolve => (want = resolve));
  const timer = setTimeout(() => want(), LOAD_ANYWAY_MS);

  const reply = (id: Id, result: unknown) => {
    answered.add(id);
    write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
  };

  // The spelling decides the instructions too, so it is read at initialize.
  // An invalid hub setting is the full hub's to refuse (server.ts): initialize is not answered here.
  const nameMode = (): NameMode | undefined => {
    if (!leanSettingsValid(env)) return undefined;
    const home = leanHome(env);
    const setting = home === undefined ? undefined : leanToolNames(env, home);
    return setting && pickNameMode(setting);
  };

  const toolsList = (mode: NameMode): Json[] | undefined => {
    const home = leanHome(env);
    const servers = home === undefined ? undefined : leanServers(home, listing.storeVersion);
    // Per-server settings and tool integrity apply here as in the full hub (proxy/tool-filter.ts).
    const integrity = home === undefined ? undefined : leanIntegrity(home);
    if (!servers || !integrity) return undefined;
    const routes = buildRoutes(servers as unknown as ServerWithTools[], { integrity });
    // Only a session that lists every proxied tool is answered here (proxy/exposure.ts decides);
    // a project file, search mode or a capped client's choice is the full hub's.
    const exposure = leanExposure(env, home as string);
    const own = listing.tools[mode].length;
    if (!exposure || !listsEveryTool(exposure, client, own, routes.routes.length)) return undefined;
    if (findProjectFile([process.cwd()]) !== undefined) return undefined;
    listed = routes.signature;
    return toolsForClient([...listing.tools[mode], ...routes.lists[mode]], takesTasks);
  };

  // prompts/list, resources/list, resources/templates/list: the installed servers' cached entries
  // (then hub's own), paged exactly as the full hub pages them (proxy/surface-pages.ts).
  const surfaceList = (method: string, params: unknown, mode: NameMode): Json | undefined => {
    const kind = SURFACE_METHODS[method];
    const home = leanHome(env);
    // A disabled server lists nothing (proxy/tool-filter.ts), as in the full hub.
    const servers =
      home === undefined ? undefined : leanServers(home, listing.storeVersion)?.filter(s => !isDisabled(s));
    if (!kind || !servers || (params !== undefined && !isObject(params))) return undefined;
    // hub's own resources list the logs of recorded processes, which only the full hub builds.
    if (kind === 'resources' && leanHasProcesses(home as string) !== false) return undefined;
    const own = listing.surface[kind];
    const items =
      kind === 'prompts'
        ? [...buildPromptRoutes(servers as unknown as ServerWithTools[]).lists[mode], ...own]
        : [...(kind === 'resources' ? listedResources(servers) : listedTemplates(servers)), ...own];
    const page = pageOf(kind, items, params?.cursor);
    // A bad cursor is the full hub's to refuse.
    if ('error' in page) return undefined;
    return { [kind]: page.items, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
  };

  // True when answered here; false hands this message and every later one to the full hub.
  const answer = (message: Json): boolean => {
    const { id, method, params } = message;
    // Not JSON-RPC 2.0 (a "1.0" frame): the full hub's to refuse, or it would be answered twice.
    if (typeof method !== 'string' || message.jsonrpc !== '2.0') return false;
    if (id === undefined) return true; // notifications need no answer; the full hub still sees them
    if (!isId(id) || answered.has(id)) return false;
    if (method === 'initialize' && !initialized) {
      const init = initializeParams(params);
      mode = nameMode();
      if (!init || !mode) return false;
      initialized = true;
      client = init.client;
      const protocolVersion = listing.protocol.supported.includes(init.version)
        ? init.version
        : listing.protocol.latest;
      takesTasks = clientTakesTasks((params as Json).capabilities as Json, protocolVersion);
      reply(id, { protocolVersion, ...listing.initialize[mode], ...serverInstructions(listing, env, mode) });
      return true;
    }
    // 2026-07-28: server/discover, and requests that say their revision in _meta (no initialize).
    const claim = claimOf(params);
    if (claim.era === 'refused') return false;
    if (method === 'server/discover' || claim.era === 'modern') mode ??= nameMode();
    if (!mode) return false;
    if (method === 'server/discover') {
      const { capabilities, serverInfo } = listing.initialize[mode];
      const { instructions } = serverInstructions(listing, env, mode);
      reply(id, discoverResult({ legacyVersions: listing.protocol.supported, capabilities, serverInfo, instructions }));
      return true;
    }
    const modern = claim.era === 'modern';
    if (!initialized && !modern) return false;
    const answerList = (result: Json) => {
      reply(id, modern ? modernResult(method, result, listing.initialize[mode!].serverInfo) : result);
      want();
      return true;
    };
    if (method === 'ping' && !modern && (params === undefined || isObject(params))) {
      reply(id, {});
      return true;
    }
    if (method === 'tools/list' && (params === undefined || isObject(params))) {
      const tools = toolsList(mode);
      return tools ? answerList({ tools }) : false;
    }
    const page = surfaceList(method, params, mode);
    return page ? answerList(page) : false;
  };

  const reader = new JsonLineReader(
    message => {
      if (deferring) return;
      if (!answer(message)) {
        deferring = true;
        want();
      }
    },
    // A line that is not JSON is the full hub's to report, when it replays it.
    () => undefined,
  );
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    reader.push(chunk);
  };
  const onEnd = () => {
    ended = true;
    want();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);

  return {
    wanted,
    handOff() {
      clearTimeout(timer);
      // Paused, not detached: bytes arriving now wait in the stream for the full hub's reader.
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      deferring = true;
      return { replay: Buffer.concat(chunks), answered, ended, ...(listed !== undefined && { listed }) };
    },
  };
}
