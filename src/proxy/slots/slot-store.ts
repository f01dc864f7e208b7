// What a running child tells about itself (tools, instructions, surface), kept in the store.
import { existsSync } from 'node:fs';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { HubPaths } from '../../core/paths.js';
import { readToolCacheFile, writeToolCache } from '../../store/tool-cache.js';
import { approvedDefinitions, fingerprintsOf, type IntegrityMode } from '../listing/tool-integrity.js';
import type { CachedSurface, ServerRecord } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { capInstructions } from '../listing/instructions-section.js';
import { approvedSurface, surfacePrintsOf } from '../listing/surface-integrity.js';
import { launchKey, type ToolMemo } from './records.js';
import type { ServerSlot, SlotContext } from './server-slot.js';
import { issuesOf, sameJson, sameTools } from '../child/tool-intake.js';
import { withNeed } from '../listing/tool-needs.js';

/** Caches a child's prompts, resources and templates; false when they were already cached as they are. */
export type SurfaceWriter = (slot: ServerSlot, surface: CachedSurface) => Promise<boolean>;

/**
 * What a running child tells about itself (its tools, its instructions), kept in its slot and in
 * the store: the next hub lists the tools and shows the instructions without starting it. Written
 * under the store's lock, and only while the record is still the install that was started.
 */
export function slotStoreWriter(deps: {
  paths: HubPaths;
  store: Store;
  log: Logger;
  memo: ToolMemo;
  /** Tool integrity: also whether changed instructions and prompt or resource texts are withheld. */
  integrity: IntegrityMode;
  /** A slot's tools changed: the routes are rebuilt. */
  toolsChanged(): void;
}): Pick<SlotContext, 'toolsListed' | 'instructionsSeen' | 'needSeen'> & { surfaceListed: SurfaceWriter } {
  const { paths, store, log, memo } = deps;
  return {
    async toolsListed(slot, tools) {
      // Unchanged and already in its own file: nothing to write (an inline list is moved out).
      const same = sameTools(tools, slot.record.tools);
      if (same && existsSync(paths.toolsFile(slot.name)) && slot.record.fingerprints) return;
      const toolsUpdatedAt = new Date().toISOString();
      const key = launchKey(slot.record);
      // Tool integrity's baseline, taken the first time hub caches this server's tools since it
      // keeps fingerprints (at install; for an older install, at its next listing). Changed later
      // only by a person's approval.
      const earlier = slot.record.tools;
      const baseline = slot.record.fingerprints ?? fingerprintsOf(tools);
      slot.keep(record => ({ ...record, tools, toolsUpdatedAt, fingerprints: record.fingerprints ?? baseline }));
      if (!same) deps.toolsChanged();
      // db.json gets the stamp; tools/<name>.json the list.
      await store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          record.fingerprints ??= baseline;
          const before = readToolCacheFile(paths, slot.name);
          const approved = approvedDefinitions(tools, record.fingerprints, [
            ...(before?.approvedTools ?? []),
            ...earlier,
          ]);
          const { surface } = slot.record;
          writeToolCache(
            paths,
            slot.name,
            tools,
            toolsUpdatedAt,
            issuesOf(tools),
            surface,
            approved,
            before?.pendingSurface,
          );
          memo.remember(slot.name, toolsUpdatedAt, tools, slot.record.surface);
          record.toolsUpdatedAt = toolsUpdatedAt;
          delete record.tools;
        })
        .catch(error =>
          log.warn({ server: slot.name, err: errorMessage(error) }, 'could not cache the tool list in the store'),
        );
    },
    // Beside the tools in tools/<name>.json, under a new stamp so other hubs re-read it. Under
    // integrity, an entry whose text changed since approved is cached with its approved text (or
    // none) and its new text kept apart for a person (surface-integrity.ts).
    async surfaceListed(slot, sent) {
      const checked = deps.integrity !== 'off';
      const prints = checked ? (slot.record.surfacePrints ?? surfacePrintsOf(sent)) : undefined;
      const { listed: surface, pending } = prints
        ? approvedSurface(sent, prints, slot.record.surface)
        : { listed: sent, pending: [] };
      const pendingBefore = readToolCacheFile(paths, slot.name)?.pendingSurface ?? [];
      if (slot.record.surface && sameJson(surface, slot.record.surface) && sameJson(pending, pendingBefore))
        return false;
      const toolsUpdatedAt = new Date().toISOString();
      const key = launchKey(slot.record);
      slot.keep(record => ({
        ...record,
        surface,
        toolsUpdatedAt,
        ...(prints && { surfacePrints: record.surfacePrints ?? prints }),
      }));
      await store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          if (prints) record.surfacePrints ??= prints;
          const { tools } = slot.record;
          const before = readToolCacheFile(paths, slot.name);
          writeToolCache(
            paths,
            slot.name,
            tools,
            toolsUpdatedAt,
            before?.issues ?? [],
            surface,
            before?.approvedTools,
            pending,
          );
          memo.remember(slot.name, toolsUpdatedAt, tools, surface);
          record.toolsUpdatedAt = toolsUpdatedAt;
          delete record.tools;
        })
        .catch(error =>
          log.warn({ server: slot.name, err: errorMessage(error) }, 'could not cache the prompts and resources'),
        );
      return true;
    },
    // A tool's learned need (tool-needs.ts), in the record so every hub and session marks it.
    needSeen(slot, tool, need) {
      const key = launchKey(slot.record);
      slot.keep(record => ({ ...record, toolNeeds: withNeed(record.toolNeeds, tool, need) }));
      deps.toolsChanged();
      store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          record.toolNeeds = withNeed(record.toolNeeds, tool, need);
        })
        .catch(error => log.warn({ server: slot.name, err: errorMessage(error) }, 'could not keep what a tool needs'));
    },
    // Kept in the record so registry.list and hub's own instructions show them with no child running.
    // Under integrity, instructions are approved text like tool descriptions: the text first seen
    // (before hub keeps fingerprints: at install) is approved; a later change waits in
    // pendingInstructions for a person (registry/decisions/tool-review.ts) and the approved text stays in use.
    async instructionsSeen(slot, instructions) {
      const kept = capInstructions(instructions);
      const key = launchKey(slot.record);
      const next = <T extends ServerRecord>(record: T): T => {
        const rest = { ...record };
        delete rest.instructions;
        delete rest.pendingInstructions;
        const checked = deps.integrity !== 'off' && record.fingerprints !== undefined;
        if (checked && kept !== record.instructions)
          return {
            ...rest,
            ...(record.instructions !== undefined && { instructions: record.instructions }),
            ...(kept !== undefined && { pendingInstructions: kept }),
          };
        return kept === undefined ? rest : { ...rest, instructions: kept };
      };
      slot.keep(next);
      await store
        .update(data => {
          const record = data.servers[slot.name];
          if (!record || launchKey(record) !== key) return;
          data.servers[slot.name] = next(record);
        })
        .catch(error =>
          log.warn({ server: slot.name, err: errorMessage(error) }, 'could not keep the server instructions'),
        );
    },
  };
}
