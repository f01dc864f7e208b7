// The handlers for prompts/*, resources/*, completion and logging over every source, paged.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { NameMode } from '../../core/naming.js';
import { SKILLS_EXTENSIONS } from './skills-handlers.js';
import { RpcError } from '../../wire/rpc-error.js';
import type { ProxiedSurface } from './types.js';
import type { ClientSide } from '../sessions/client-side.js';
import { takesApps } from '../sessions/apps-extension.js';
import { isUiUri } from '../listing/apps.js';
import type { ReadCall, ResourceSource } from './resource-source.js';
import { pageOf, type PagedKind } from '../listing/pages.js';
import type { ServerExtra } from '../sessions/client-side.js';

/** What hub declares besides tools: answered whether or not any child offers them (empty lists). Skills: docs/skills.md. */
export const SURFACE_CAPABILITIES: ServerCapabilities = {
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
  extensions: { ...SKILLS_EXTENSIONS },
};

// The caller's cancel signal, and its progress token re-used for what the child reports. The
// result waits for the progress sent before it (`settled`): a client drops progress that arrives
// after the result, so the last step would otherwise be lost now and then.
function readCall(extra: ServerExtra, session: object | undefined): ReadCall & { settled(): Promise<void> } {
  const token = extra._meta?.progressToken;
  let sent = Promise.resolve();
  if (token === undefined) return { signal: extra.signal, session, meta: extra._meta, settled: () => sent };
  return {
    signal: extra.signal,
    session,
    meta: extra._meta,
    onProgress: progress => {
      const notice = { method: 'notifications/progress' as const, params: { ...progress, progressToken: token } };
      sent = sent.then(() => extra.sendNotification(notice).catch(() => undefined));
    },
    settled: () => sent,
  };
}

/** Runs a forwarded request, answering only after its progress notifications went out. */
async function relayed<T>(
  extra: ServerExtra,
  session: object | undefined,
  run: (call: ReadCall) => Promise<T>,
): Promise<T> {
  const call = readCall(extra, session);
  try {
    return await run(call);
  } finally {
    await call.settled();
  }
}

function page<T>(kind: PagedKind, items: readonly T[], cursor: unknown): { items: T[]; nextCursor?: string } {
  const result = pageOf(kind, items, cursor);
  if ('error' in result) throw new RpcError(ErrorCode.InvalidParams, result.error);
  return result;
}

const NO_COMPLETION = { completion: { values: [], hasMore: false } };

/**
 * hub.ts's handlers for prompts/*, resources/*, completion/complete and logging/setLevel over the installed servers'
 * prompts and every ResourceSource (the proxied servers', hub's own), listed in the sources'
 * order and paged over the whole (proxy/listing/pages.ts, the same pages the cold-start lane gives).
 */
export function registerSurface(
  server: Server,
  options: {
    mode: NameMode;
    surface: ProxiedSurface | undefined;
    sources: readonly ResourceSource[];
    /** This session's client: it keeps the level the client set. */
    client?: ClientSide;
  },
): void {
  const { mode, surface, sources } = options;
  const ownerOf = (uri: string): ResourceSource => {
    const source = sources.find(candidate => candidate.owns(uri));
    if (source) return source;
    // -32002: the spec's "resource not found".
    throw new RpcError(
      -32002,
      `Resource not found: ${uri}. No installed server lists it or a template it matches; resources/list and resources/templates/list show what can be read.`,
    );
  };

  server.setRequestHandler(ListPromptsRequestSchema, request => {
    const { items, nextCursor } = page('prompts', surface?.prompts(mode) ?? [], request.params?.cursor);
    return { prompts: items as never[], ...(nextCursor && { nextCursor }) };
  });
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => {
    if (!surface) throw new RpcError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}.`);
    return relayed(extra, options.client, call =>
      surface.getPrompt(request.params.name, request.params.arguments, call),
    );
  });
  server.setRequestHandler(ListResourcesRequestSchema, async request => {
    const every = (await Promise.all(sources.map(source => source.resources()))).flat();
    // A session without MCP Apps is shown no app views (listing/apps.ts); reading one still works.
    const all = takesApps(options.client?.capabilities()) ? every : every.filter(item => !isUiUri(item.uri));
    const { items, nextCursor } = page('resources', all, request.params?.cursor);
    return { resources: items, ...(nextCursor && { nextCursor }) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async request => {
    const all = (await Promise.all(sources.map(source => source.templates()))).flat();
    const { items, nextCursor } = page('resourceTemplates', all, request.params?.cursor);
    return { resourceTemplates: items, ...(nextCursor && { nextCursor }) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
    relayed(extra, options.client, call => ownerOf(request.params.uri).read(request.params.uri, call)),
  );
  server.setRequestHandler(SubscribeRequestSchema, async request => {
    await ownerOf(request.params.uri).subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async request => {
    await Promise.all(
      sources.filter(source => source.owns(request.params.uri)).map(s => s.unsubscribe(request.params.uri)),
    );
    return {};
  });
  server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    relayed(extra, options.client, async call => {
      if (request.params.ref.type === 'ref/prompt')
        return (await surface?.completePrompt(request.params, call)) ?? NO_COMPLETION;
      for (const source of sources) {
        const result = await source.complete?.(request.params, call);
        if (result) return result;
      }
      return NO_COMPLETION;
    }),
  );
  server.setRequestHandler(SetLevelRequestSchema, async request => {
    options.client?.setLogLevel?.(request.params.level);
    await surface?.setLogLevel(request.params.level);
    return {};
  });
}
