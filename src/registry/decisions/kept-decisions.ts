// The person's decisions kept across an uninstall, so a reinstall cannot undo them.
import { HubError } from '../../core/errors.js';
import type { IntegrityMode } from '../../proxy/listing/tool-integrity.js';
import { driftOf } from '../../proxy/listing/tool-integrity.js';
import type { HubPaths } from '../../core/paths.js';
import type { KeptDecisions, ServerRecord, StoreData } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { withTools } from '../../store/tool-cache.js';

// The person's decisions outlive an uninstall (docs/security.md "Tool integrity"): disabled, tools allow and
// deny, and the approved fingerprints (so what was withheld stays withheld). registry.uninstall
// keeps them in db.json's `kept`; an install under the same name gets them back, so the agent
// cannot undo the person by uninstalling and installing again. Only the person drops them:
// `hub servers forget <name>`, `hub uninstall --purge`, or answering yes when an install of
// another server under the name would drop them.

/** What is installed under a name, as decisions are kept for it. */
export const sourceOf = (record: Pick<ServerRecord, 'package' | 'command' | 'remote'>): string =>
  record.remote
    ? `url ${record.remote.url}`
    : record.package
      ? `package ${record.package}`
      : `command ${record.command}`;

/** The decisions of a record worth keeping; undefined when the person decided nothing about it. */
export function decisionsOf(
  paths: HubPaths,
  record: ServerRecord,
  integrity: IntegrityMode,
): KeptDecisions | undefined {
  const withheld =
    integrity === 'off'
      ? []
      : [
          ...(record.pendingInstructions === undefined ? [] : ['its instructions']),
          ...driftOf(withTools(paths, record).tools, record.fingerprints).keys(),
        ];
  const settings = record.settings && Object.keys(record.settings).length > 0 ? record.settings : undefined;
  if (!settings && !record.fingerprints) return undefined;
  return {
    source: sourceOf(record),
    keptAt: new Date().toISOString(),
    ...(settings && { settings }),
    ...(record.fingerprints && { fingerprints: record.fingerprints }),
    ...(record.surfacePrints && { surfacePrints: record.surfacePrints }),
    ...(record.instructions !== undefined && { instructions: record.instructions }),
    ...(withheld.length > 0 && { withheld }),
  };
}

/** The decisions as a person reads them; what an install that drops them would undo. Empty: nothing of weight. */
export function describeKept(kept: KeptDecisions): string[] {
  const { settings } = kept;
  return [
    ...(settings?.enabled === false ? ['it was disabled'] : []),
    ...(settings?.allow ? [`tools.allow ${JSON.stringify(settings.allow)}`] : []),
    ...(settings?.deny ? [`tools.deny ${JSON.stringify(settings.deny)}`] : []),
    ...(settings?.perSession ? ['one child per client session'] : []),
    ...(kept.withheld ? [`withheld tools (changed since the user approved them): ${kept.withheld.join(', ')}`] : []),
  ];
}

/** Under the store's lock, writing a new record: the decisions kept for its name come back with it. */
export function restoreKept(data: StoreData, record: ServerRecord, drop: boolean): string[] {
  const kept = Object.hasOwn(data.kept, record.name) ? data.kept[record.name] : undefined;
  if (!kept) return [];
  delete data.kept[record.name];
  // Another server under this name, and the person agreed to drop them (or there was nothing of weight).
  const undone = describeKept(kept);
  if (drop || (kept.source !== sourceOf(record) && undone.length === 0)) return [];
  if (kept.settings) record.settings = kept.settings;
  if (kept.fingerprints) record.fingerprints = kept.fingerprints;
  if (kept.surfacePrints) record.surfacePrints = kept.surfacePrints;
  if (kept.instructions !== undefined) record.instructions = kept.instructions;
  return undone.length > 0 ? undone : ['the approved tool definitions'];
}

export const forgetCommand = (name: string) => `hub-mcp servers forget ${name}`;

/**
 * Before installing another server (another package, command or URL) under a name whose decisions
 * are kept: those decisions would be dropped, which only the person may do. True when they are
 * to be dropped (asked and agreed); false when there is nothing to ask (they come back as they are).
 */
export async function confirmDroppingKept(
  context: { readonly store: Store; readonly confirmUndo?: ((question: UndoQuestion) => Promise<void>) | undefined },
  name: string,
  source: string,
): Promise<boolean> {
  const kept = (await context.store.read()).kept[name];
  if (!kept || kept.source === source) return false;
  const undone = describeKept(kept);
  if (undone.length === 0) return false;
  const question = {
    name,
    was: kept.source,
    now: source,
    undone,
  };
  if (!context.confirmUndo)
    throw new HubError(
      'CONSENT_UNAVAILABLE',
      `Nothing was installed: "${name}" was ${kept.source}, and the user's decisions about it are kept (${undone.join('; ')}); installing ${source} under this name would undo them, which needs the user. They can run \`${forgetCommand(name)}\` in a terminal to drop them, or install it under another name.`,
    );
  await context.confirmUndo(question);
  return true;
}

/** What the person is asked before an install drops their kept decisions. */
export interface UndoQuestion {
  readonly name: string;
  readonly was: string;
  readonly now: string;
  readonly undone: readonly string[];
}

export const describeUndo = (question: UndoQuestion): string =>
  [
    `Install ${question.now} as MCP server "${question.name}"? "${question.name}" was ${question.was}, uninstalled since, and installing this would undo your decisions about it:`,
    ...question.undone.map(line => `- ${line}`),
    `Decline to keep them (\`${forgetCommand(question.name)}\` drops them later).`,
  ].join('\n');
