// hub's own tool table: listed in the client's spelling, called with validation, errors and audit.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HubError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { CallContext, HubTool } from './define.js';
import { listedInputSchema } from './listed-schema.js';
import { spell, spellText, type NameMode, type Spelling } from '../core/naming.js';
import { describeInputIssues, errorResult, successResult } from '../core/tool-result.js';
import type { AuditLog } from '../store/audit/log.js';
import { auditedOwnCall } from './own-call-audit.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest as Tool['inputSchema'];
}

export function callContext(extra: Extra): CallContext {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    progressToken,
    extra,
    async sendProgress(progress, total, message) {
      if (progressToken === undefined) return;
      await extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total !== undefined && { total }),
            ...(message !== undefined && { message }),
          },
        })
        .catch(() => undefined);
    },
  };
}

// Every result of hub's own tools carries the store's warning while there is one (a damaged
// db.json kept aside, a HUB_HOME that cannot be written: store/health.ts), as text and as
// store_warning, so clients that show the model only structuredContent pass it on too.
const WARNING_FIELD = 'store_warning';

function withWarningField(schema: Tool['inputSchema']): Tool['inputSchema'] {
  if (schema.type !== 'object') return schema;
  const properties = {
    ...schema.properties,
    [WARNING_FIELD]: { type: 'string', description: 'Set while hub has a store problem a person must look at' },
    // start_process's watch, for clients that cannot take pushed events (tools/process-events.ts).
    events: { type: 'array', items: { type: 'object' }, description: 'Watched process events since the last result' },
  };
  return { ...schema, properties };
}

function withWarning(result: CallToolResult, warning: string | undefined): CallToolResult {
  if (warning === undefined) return result;
  const content = [...result.content, { type: 'text' as const, text: `[hub warning] ${warning}` }];
  const structured = result.structuredContent && { ...result.structuredContent, [WARNING_FIELD]: warning };
  return { ...result, content, ...(structured && { structuredContent: structured }) };
}

/** Hub's own tools: listed in the client's spelling, found by either spelling, called with validation and error shaping. */
export function createToolTable(
  tools: readonly HubTool[],
  options: {
    log: Logger;
    resultCapBytes: number;
    mode: NameMode;
    spelling: () => Spelling;
    /** The store's warning, while there is one. */
    warning?: () => Promise<string | undefined>;
    /** Where calls are recorded (store/audit/log.ts). */
    audit?: AuditLog;
    /** What the result carries besides (the session's process events, tools/process-events.ts). */
    decorate?: (result: CallToolResult) => CallToolResult;
  },
) {
  const { log, resultCapBytes, mode, spelling } = options;
  const warning = options.warning ?? (() => Promise.resolve(undefined));
  const byName = new Map<string, HubTool>();
  for (const tool of tools) {
    byName.set(tool.name, tool);
    byName.set(spell(tool.name, 'underscore'), tool);
  }
  // Built once: the mode is fixed per hub, and listing is on the cold-start path. Descriptions
  // (the schemas' too) name other tools, so they are spelled the way the client sees them.
  const listed: Tool[] = tools.map(tool => {
    const entry: Tool = {
      name: spell(tool.name, mode),
      title: tool.title,
      description: tool.description,
      inputSchema: listedInputSchema(jsonSchema(tool.input, 'input')),
      ...(tool.output && {
        outputSchema: withWarningField(jsonSchema(tool.output, 'output')) as NonNullable<Tool['outputSchema']>,
      }),
      ...(tool.annotations && { annotations: { title: tool.title, ...tool.annotations } }),
    };
    return JSON.parse(spellText(JSON.stringify(entry), mode)) as Tool;
  });

  // What hub writes (text, the `next` guidance, errors) names tools as this client sees them.
  const spellResult = (result: CallToolResult): CallToolResult => {
    if (mode === 'dotted') return result;
    const names = spelling();
    const content = result.content.map(block =>
      block.type === 'text' ? { ...block, text: spellText(block.text, mode, names) } : block,
    );
    const structured = result.structuredContent;
    const next = structured?.next;
    return {
      ...result,
      content,
      ...(structured &&
        typeof next === 'string' && { structuredContent: { ...structured, next: spellText(next, mode, names) } }),
    };
  };

  async function callPlain(tool: HubTool, args: unknown, extra: Extra): Promise<CallToolResult> {
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success)
      return spellResult(errorResult(new HubError('INVALID_INPUT', describeInputIssues(tool.name, parsed.error))));
    try {
      const output = await tool.run(parsed.data, callContext(extra));
      // A passthrough is the child's own result (registry.call): its text is not hub's to change.
      if ('passthrough' in output) return output.passthrough;
      const result = successResult(output.structured, output.text, resultCapBytes);
      if (output.content) result.content.push(...output.content);
      if (output.isError) result.isError = true;
      return spellResult(result);
    } catch (error) {
      if (error instanceof HubError) log.debug({ tool: tool.name, code: error.code, err: error }, 'tool error');
      else log.error({ tool: tool.name, err: error }, 'unexpected tool error');
      return spellResult(errorResult(error));
    }
  }

  return {
    names: (): ReadonlySet<string> => new Set(byName.keys()),
    list: (): Tool[] => listed,
    find: (name: string): HubTool | undefined => byName.get(name),
    async call(tool: HubTool, args: unknown, extra: Extra): Promise<CallToolResult> {
      const session = (extra as { session?: object }).session;
      const result = await auditedOwnCall(options.audit, tool.name, args, session, () => callPlain(tool, args, extra));
      const decorated = options.decorate ? options.decorate(result) : result;
      return withWarning(decorated, await warning().catch(() => undefined));
    },
  };
}
