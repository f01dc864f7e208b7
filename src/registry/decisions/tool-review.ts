// What a person reviews before approving a server's tools: changes, old against new, and markers.
import { cut } from '../../core/clip.js';
import { z } from 'zod';
import type { HubPaths } from '../../core/paths.js';
import { injectionMarkers, toolMarkers } from '../../proxy/listing/injection-markers.js';
import { surfacePrint } from '../../proxy/listing/surface-integrity.js';
import { driftOf, fingerprint, type IntegrityMode } from '../../proxy/listing/tool-integrity.js';
import type { CachedTool, ServerRecord } from '../../store/schema.js';
import { readToolCacheFile, withTools } from '../../store/tool-cache.js';

// What a person reviews before approving a server's tools (docs/security.md "Tool integrity"): the tools
// whose definition differs from the approved one, old against new, and the tools whose text
// carries prompt-injection markers. Read from the store only: no server is started for it.
// Two audiences: the person (CLI, dashboard, the approval question) sees the new text beside the
// approved one; the agent (registry.list, registry.configure) never sees the text of a withheld
// definition, only that it changed and its markers: the text could carry an instruction to it.

/** Who reads the report: the person sees withheld text, the agent does not. */
export type Audience = 'agent' | 'person';

const DefinitionSchema = z.object({
  description: z.string(),
  params: z.array(z.string()),
});
type Definition = z.infer<typeof DefinitionSchema>;

export const ToolChangeSchema = z.object({
  tool: z.string(),
  status: z.enum(['changed', 'new']),
  action: z.enum(['withheld', 'flagged', 'listed']),
  fingerprint: z.string().describe('sha256 of the new definition: an approval approves this one only'),
  was: DefinitionSchema.optional().describe('As approved'),
  now: DefinitionSchema.optional().describe('The new definition (not shown to the agent while withheld)'),
  markers: z.array(z.string()).optional().describe('Prompt-injection markers in the new definition'),
});
export type ToolChange = z.infer<typeof ToolChangeSchema>;

export const ToolMarkersSchema = z.object({
  tool: z.string(),
  markers: z.array(z.string()).describe('Prompt-injection markers: show them to the user'),
});

export const IntegrityReportSchema = z.object({
  changed: z.array(ToolChangeSchema).optional(),
  markers: z.array(ToolMarkersSchema).optional(),
});
export type IntegrityReport = z.infer<typeof IntegrityReportSchema>;

/** The agent's summary of an approved text; the person sees it whole (descriptions are capped at intake). */
const SUMMARY_CHARS = 300;

function definition(tool: CachedTool, audience: Audience): Definition {
  const description = tool.description ?? '';
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return {
    description: audience === 'agent' ? cut(description, SUMMARY_CHARS) : description,
    params: properties !== null && typeof properties === 'object' ? Object.keys(properties) : [],
  };
}

/** A change with the definition it was computed from: an approval keeps exactly that one. */
export interface PendingTool {
  readonly change: ToolChange;
  readonly tool: CachedTool;
  /** For a prompt, resource or template: the entry as the child sent it. */
  readonly surface?: Record<string, unknown>;
}

/** The name a server's own instructions go by in a report and in `approve` (no tool can be named so). */
export const INSTRUCTIONS = '(instructions)';

/** Instructions the server sent since that are not the approved ones, as a change to review (withheld in every mode but "off"). */
function pendingInstructions(record: ServerRecord, mode: IntegrityMode, audience: Audience): PendingTool[] {
  if (record.pendingInstructions === undefined || mode === 'off') return [];
  const text = (description: string): CachedTool => ({
    name: INSTRUCTIONS,
    description,
    inputSchema: { type: 'object' },
  });
  const tool = text(record.pendingInstructions);
  const markers = injectionMarkers(tool);
  const change: ToolChange = {
    tool: INSTRUCTIONS,
    status: record.instructions === undefined ? 'new' : 'changed',
    action: 'withheld',
    fingerprint: fingerprint(tool),
    ...(record.instructions !== undefined && { was: definition(text(record.instructions), audience) }),
    ...(audience === 'person' && { now: definition(tool, audience) }),
    ...(markers.length > 0 && { markers }),
  };
  return [{ change, tool }];
}

/** A prompt, resource or template whose text is withheld, as a change to review: listed meanwhile with its approved text. */
function pendingSurface(paths: HubPaths, record: ServerRecord, mode: IntegrityMode, audience: Audience): PendingTool[] {
  if (mode === 'off') return [];
  const file = readToolCacheFile(paths, record.name);
  const listed = file?.surface;
  return (file?.pendingSurface ?? []).map(({ key, item }) => {
    const id = key.startsWith('prompt:') ? 'name' : key.startsWith('template:') ? 'uriTemplate' : 'uri';
    const kind = key.startsWith('prompt:')
      ? 'prompts'
      : key.startsWith('resource:')
        ? 'resources'
        : key.startsWith('skill:')
          ? 'skills'
          : 'resourceTemplates';
    const shown = listed?.[kind]?.find(entry => `${key.slice(0, key.indexOf(':'))}:${String(entry[id])}` === key);
    const asTool = (entry: Record<string, unknown>): CachedTool => ({
      name: key,
      ...(typeof entry.title === 'string' && { title: entry.title }),
      // A skill's text is its SKILL.md, kept for this review (proxy/child/skills-intake.ts).
      description:
        typeof entry.text === 'string' ? entry.text : typeof entry.description === 'string' ? entry.description : '',
      inputSchema: { type: 'object', ...(Array.isArray(entry.arguments) && { properties: argumentsOf(entry) }) },
    });
    const tool = asTool(item);
    const markers = injectionMarkers(tool);
    const approved = Object.hasOwn(record.surfacePrints ?? {}, key);
    const change: ToolChange = {
      tool: key,
      status: approved ? 'changed' : 'new',
      action: 'withheld',
      fingerprint: surfacePrint(item),
      ...(approved &&
        shown &&
        (shown.description !== undefined || shown.title !== undefined) && {
          was: definition(asTool(shown), audience),
        }),
      ...(audience === 'person' && { now: definition(tool, audience) }),
      ...(markers.length > 0 && { markers }),
    };
    return { change, tool, surface: item };
  });
}

// A prompt's arguments as schema properties: their names are its params, their texts are scanned.
const argumentsOf = (entry: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    (entry.arguments as Record<string, unknown>[]).map(arg => [
      String(arg.name),
      { ...(typeof arg.description === 'string' && { description: arg.description }) },
    ]),
  );

/** The tools of a record that differ from its approved fingerprints, with the definitions read. */
export function pendingTools(
  paths: HubPaths,
  record: ServerRecord,
  mode: IntegrityMode,
  audience: Audience,
): PendingTool[] {
  const { tools } = withTools(paths, record);
  const approved = readToolCacheFile(paths, record.name)?.approvedTools ?? [];
  const action = mode === 'withhold' ? 'withheld' : mode === 'flag' ? 'flagged' : 'listed';
  // A withheld text stays withheld: the agent gets that it changed, and its markers.
  const hidden = audience === 'agent' && action === 'withheld';
  const changed = [...driftOf(tools, record.fingerprints)].map(([name, status]) => {
    const tool = tools.find(entry => entry.name === name)!;
    const print = fingerprint(tool);
    const was =
      status === 'changed'
        ? approved.find(entry => entry.name === name && fingerprint(entry) === record.fingerprints?.[name])
        : undefined;
    const markers = injectionMarkers(tool);
    const change: ToolChange = {
      tool: name,
      status,
      action,
      fingerprint: print,
      ...(was && { was: definition(was, audience) }),
      ...(!hidden && { now: definition(tool, audience) }),
      ...(markers.length > 0 && { markers }),
    };
    return { change, tool };
  });
  return [...pendingInstructions(record, mode, audience), ...changed, ...pendingSurface(paths, record, mode, audience)];
}

/** The tools of a record that differ from its approved fingerprints, old against new. */
export const toolChanges = (
  paths: HubPaths,
  record: ServerRecord,
  mode: IntegrityMode,
  audience: Audience,
): ToolChange[] => pendingTools(paths, record, mode, audience).map(pending => pending.change);

/** Changes and markers of one server, with the fields left out when there is nothing to say. */
export function integrityReport(
  paths: HubPaths,
  record: ServerRecord,
  mode: IntegrityMode,
  audience: Audience,
): IntegrityReport {
  const changed = toolChanges(paths, record, mode, audience);
  const markers = toolMarkers(withTools(paths, record).tools);
  return { ...(changed.length > 0 && { changed }), ...(markers.length > 0 && { markers }) };
}

const params = (definition: Definition) => `params [${definition.params.join(', ')}]`;

/** The report as lines (registry.list text, the CLI, the approval question): `now` only where the report has it. */
export function reportLines(server: string, report: IntegrityReport): string[] {
  const lines: string[] = [];
  for (const change of report.changed ?? []) {
    const what = change.status === 'new' ? 'new since approval' : 'changed since approval';
    const hidden = change.now === undefined ? ' (its new text is shown only to the user)' : '';
    lines.push(`! ${change.action} ${change.tool}: ${what}${hidden}`);
    if (change.was) lines.push(`    was: ${JSON.stringify(change.was.description)} ${params(change.was)}`);
    if (change.now) lines.push(`    now: ${JSON.stringify(change.now.description)} ${params(change.now)}`);
    if (change.markers) lines.push(`    markers in the new text: ${change.markers.join('; ')}`);
  }
  const marked = new Set((report.changed ?? []).filter(change => change.markers).map(change => change.tool));
  for (const entry of report.markers ?? [])
    if (!marked.has(entry.tool))
      lines.push(`! possible prompt injection in ${entry.tool}: ${entry.markers.join('; ')}`);
  if ((report.changed ?? []).length > 0)
    lines.push(
      `Approve after review: \`hub-mcp servers approve ${server}\` in a terminal, or registry.configure { server: "${server}", approve: ["*"] } (asks the user).`,
    );
  return lines;
}
