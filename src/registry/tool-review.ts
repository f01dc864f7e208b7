import { z } from 'zod';
import type { HubPaths } from '../core/paths.js';
import { toolMarkers } from '../proxy/injection-markers.js';
import { driftOf, type IntegrityMode } from '../proxy/tool-integrity.js';
import type { CachedTool, ServerRecord } from '../store/schema.js';
import { readToolCacheFile, withTools } from '../store/tool-cache.js';

// What a person reviews before approving a server's tools (README "Tool integrity"): the tools
// whose definition differs from the approved one, old against new, and the tools whose text
// carries prompt-injection markers. Read from the store only: no server is started for it.

const DefinitionSchema = z.object({
  description: z.string(),
  params: z.array(z.string()),
});

export const ToolChangeSchema = z.object({
  tool: z.string(),
  status: z.enum(['changed', 'new']),
  action: z.enum(['withheld', 'flagged', 'listed']),
  was: DefinitionSchema.optional().describe('As approved'),
  now: DefinitionSchema,
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

const SUMMARY_CHARS = 300;

function definition(tool: CachedTool): z.infer<typeof DefinitionSchema> {
  const description = tool.description ?? '';
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return {
    description: description.length > SUMMARY_CHARS ? `${description.slice(0, SUMMARY_CHARS)}…` : description,
    params: properties !== null && typeof properties === 'object' ? Object.keys(properties) : [],
  };
}

/** The tools of a record that differ from its approved fingerprints, old against new. */
export function toolChanges(paths: HubPaths, record: ServerRecord, mode: IntegrityMode): ToolChange[] {
  const { tools } = withTools(paths, record);
  const approved = readToolCacheFile(paths, record.name)?.approvedTools ?? [];
  const action = mode === 'withhold' ? 'withheld' : mode === 'flag' ? 'flagged' : 'listed';
  return [...driftOf(tools, record.fingerprints)].map(([name, status]) => {
    const now = tools.find(tool => tool.name === name)!;
    const was = status === 'changed' ? approved.find(tool => tool.name === name) : undefined;
    return { tool: name, status, action, ...(was && { was: definition(was) }), now: definition(now) };
  });
}

/** Changes and markers of one server, with the fields left out when there is nothing to say. */
export function integrityReport(paths: HubPaths, record: ServerRecord, mode: IntegrityMode): IntegrityReport {
  const changed = toolChanges(paths, record, mode);
  const markers = toolMarkers(withTools(paths, record).tools);
  return { ...(changed.length > 0 && { changed }), ...(markers.length > 0 && { markers }) };
}

/** The report as lines for a person (registry.list text, the CLI, the approval question). */
export function reportLines(server: string, report: IntegrityReport): string[] {
  const lines: string[] = [];
  for (const change of report.changed ?? []) {
    lines.push(
      `! ${change.action} ${change.tool}: ${change.status === 'new' ? 'new since approval' : 'changed since approval'}`,
    );
    if (change.was)
      lines.push(`    was: ${JSON.stringify(change.was.description)} params [${change.was.params.join(', ')}]`);
    lines.push(`    now: ${JSON.stringify(change.now.description)} params [${change.now.params.join(', ')}]`);
  }
  for (const entry of report.markers ?? [])
    lines.push(`! possible prompt injection in ${entry.tool}: ${entry.markers.join('; ')}`);
  if ((report.changed ?? []).length > 0)
    lines.push(
      `Approve after review: \`hub servers approve ${server}\` in a terminal, or registry.configure { server: "${server}", approve: ["*"] } (asks the user).`,
    );
  return lines;
}
