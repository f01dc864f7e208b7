// Approving changed prompt, resource and template texts: what the person saw becomes approved.
import { surfacePrint, withoutText } from '../../proxy/listing/surface-integrity.js';
import type { CachedSkill, ServerRecord, ToolCacheFile } from '../../store/schema.js';
import type { PendingTool } from './tool-review.js';

// Approving prompts, resources and templates whose text changed (proxy/listing/surface-integrity.ts):
// the text the person was shown becomes the approved one (by its fingerprint) and is listed from
// now on, unless the child changed it again meanwhile: then that newer text stays withheld.

const idOf = (key: string) =>
  key.startsWith('prompt:') ? 'name' : key.startsWith('template:') ? 'uriTemplate' : 'uri';
const prefixOf = (key: string) => key.slice(0, key.indexOf(':'));

/** Under the store's lock: the record's approved prints, and the cache's surface and pending entries after the approval. */
export function approveSurface(
  record: ServerRecord,
  file: ToolCacheFile,
  entries: readonly PendingTool[],
): Pick<ToolCacheFile, 'surface' | 'pendingSurface'> {
  const shown = new Map(entries.map(entry => [entry.change.tool, entry.change.fingerprint]));
  record.surfacePrints = { ...record.surfacePrints, ...Object.fromEntries(shown) };
  const pending = file.pendingSurface ?? [];
  // Approved as sent: what the child sends now is what the person saw.
  const now = new Map(
    pending.filter(({ key, item }) => shown.get(key) === surfacePrint(item)).map(({ key, item }) => [key, item]),
  );
  const swap = <T extends Record<string, unknown>>(list: T[]): T[] =>
    list.map(entry => {
      for (const [key, item] of now) if (`${prefixOf(key)}:${String(entry[idOf(key)])}` === key) return item as T;
      return entry;
    });
  return {
    ...(file.surface && {
      surface: {
        prompts: swap(file.surface.prompts),
        resources: swap(file.surface.resources),
        resourceTemplates: swap(file.surface.resourceTemplates),
        // A withheld skill is not listed (surface-integrity.ts): approved, it is listed again.
        ...((file.surface.skills || [...now.keys()].some(key => key.startsWith('skill:'))) && {
          skills: [
            ...(file.surface.skills ?? []).filter(entry => !now.has(`skill:${String(entry.uri)}`)),
            ...[...now].flatMap(([key, item]) => (key.startsWith('skill:') ? [withoutText(item) as CachedSkill] : [])),
          ],
        }),
      },
    }),
    pendingSurface: pending.filter(({ key }) => !now.has(key)),
  };
}
