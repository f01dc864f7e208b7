// The cold-start lane: initialize and the lists answered from the store until the full hub is ready.
import { JsonLineReader } from '../wire/json-lines.js';
import type { StdinReplay } from '../wire/stdio-transport.js';
import type { NameMode } from '../core/naming.js';
import type { FastStartListing } from './listing.js';
import { claimOf, discoverResult, modernResult } from '../wire/era.js';
import { modernCapabilities } from '../wire/tasks-extension.js';
import { clientTakesTasks } from '../proxy/listing/task-listing.js';
import { holdReads } from '../store/cold-read.js';
import { laneAnswers, SURFACE_METHODS } from './lane-answers.js';

/**
 * The cold-start lane. Loading the SDK and zod costs a fresh node ~250 ms of CPU (a shared hub
 * that is not running yet, over a second), and a client waits for initialize and the lists before
 * its first turn. This answers exactly those (initialize, ping, tools/list, prompts/list,
 * resources/list with the processes' logs, resources/templates/list; server/discover and the same
 * lists for a 2026-07-28 client) from the build-time listing and HUB_HOME until the full hub is
 * ready, and records every byte read. At hand-off the full hub replays all of it into the SDK Server, so its state
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
  /**
   * Resolves when the full hub is wanted: the start lists were answered, a message needs it, stdin
   * ended, or time passed. The lane goes on answering until handOff(): server.ts takes it once the
   * full hub (shared or in-process) is ready, so lists asked meanwhile do not wait for it.
   */
  readonly wanted: Promise<void>;
  /** stdin ended while this lane was reading. */
  readonly ended: boolean;
  handOff(): HandOff;
}

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

export function startFastStart(options: {
  listing: FastStartListing;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  write: (line: string) => void;
}): FastStart {
  const { listing, env, stdin, write } = options;
  const release = holdReads();
  const store = laneAnswers(listing, env);
  const chunks: Buffer[] = [];
  const answered = new Set<Id>();
  let mode: NameMode | undefined;
  let client: string | undefined;
  let initialized = false;
  // Whether the client speaks tasks decides how task-required tools are listed (proxy/listing/task-listing.ts).
  let takesTasks = false;
  // What the client offers (its initialize's capabilities): tools that need more are the full hub's to list.
  let offers: Json | undefined;
  let deferring = false;
  let ended = false;
  let listed: string | undefined;
  // The lists a client asks for at start (Claude Code: all three at once, in any order).
  const startLists = new Set(['tools/list', 'prompts/list', 'resources/list']);
  let want!: () => void;
  const wanted = new Promise<void>(resolve => (want = resolve));
  const timer = setTimeout(() => want(), LOAD_ANYWAY_MS);

  const reply = (id: Id, result: unknown) => {
    answered.add(id);
    write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
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
      mode = store.nameMode();
      if (!init || !mode) return false;
      initialized = true;
      client = init.client;
      const protocolVersion = listing.protocol.supported.includes(init.version)
        ? init.version
        : listing.protocol.latest;
      offers = (params as Json).capabilities as Json;
      takesTasks = clientTakesTasks(offers, protocolVersion);
      reply(id, { protocolVersion, ...listing.initialize[mode], ...store.instructions(mode) });
      return true;
    }
    // 2026-07-28: server/discover, and requests that say their revision in _meta (no initialize).
    const claim = claimOf(params);
    if (claim.era === 'refused') return false;
    if (method === 'server/discover' || claim.era === 'modern') mode ??= store.nameMode();
    if (!mode) return false;
    if (method === 'server/discover') {
      const { capabilities, serverInfo } = listing.initialize[mode];
      const { instructions } = store.instructions(mode);
      reply(
        id,
        discoverResult({
          legacyVersions: listing.protocol.supported,
          capabilities: modernCapabilities(capabilities),
          serverInfo,
          instructions,
        }),
      );
      return true;
    }
    const modern = claim.era === 'modern';
    if (!initialized && !modern) return false;
    const answerList = (result: Json) => {
      reply(id, modern ? modernResult(method, result, listing.initialize[mode!].serverInfo) : result);
      // The full hub is wanted once the start lists are answered, whatever their order.
      startLists.delete(method);
      if (startLists.size === 0) want();
      return true;
    };
    if (method === 'ping' && !modern && (params === undefined || isObject(params))) {
      reply(id, {});
      return true;
    }
    if (method === 'tools/list' && (params === undefined || isObject(params))) {
      const tools = store.tools(mode, client, takesTasks, offers);
      if (!tools) return false;
      listed = tools.listed;
      return answerList({ tools: tools.tools });
    }
    const page = SURFACE_METHODS[method] === undefined ? undefined : store.surface(method, params, mode);
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
    get ended() {
      return ended;
    },
    handOff() {
      clearTimeout(timer);
      release();
      // Paused, not detached: bytes arriving now wait in the stream for the full hub's reader.
      stdin.pause();
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      deferring = true;
      return { replay: Buffer.concat(chunks), answered, ended, ...(listed !== undefined && { listed }) };
    },
  };
}
