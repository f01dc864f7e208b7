// Where a resource URI goes: the server that listed it, its templates, or its origin.
import { createHash } from 'node:crypto';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { inInstallOrder, listedResources, listedTemplates } from '../listing/resource-lists.js';
import { shownUri, uiUriPlan } from '../listing/app-uris.js';
import type { CachedResource, CachedResourceTemplate, ServerWithTools } from '../../store/schema.js';

/**
 * Where a resource URI goes. URIs are the child's own (they also appear in tool results as
 * resource_links), so they are listed and read unchanged, and hub keeps URI → server:
 *   1. a URI some server listed goes to that server;
 *   2. else a URI matching one server's templates goes to that server;
 *   3. else (a link from a tool result that is neither) the one server whose listed URIs or
 *      templates share its origin (scheme://authority).
 * When two servers claim a URI at the same step, neither shadows the other: the read is refused
 * with an error naming both (docs/protocol.md "Resources").
 */
export interface ResourceRoutes {
  readonly resources: readonly CachedResource[];
  readonly templates: readonly CachedResourceTemplate[];
  /** The servers that claim uri, at the first step that has any (empty: nobody). */
  owners(uri: string): readonly string[];
  /** The child's own URI for a URI hub shows (a ui:// URI two servers share is renamed: app-uris.ts). */
  childUri(uri: string): string;
  /** The servers that list this template (for completion/complete ref/resource). */
  templateOwners(uriTemplate: string): readonly string[];
  /** Changes whenever what resources/list or resources/templates/list shows changes. */
  readonly signature: string;
}

// scheme://authority of a URI or of a template's literal start; '' when it has none.
function originOf(uri: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#{]*)/i.exec(uri);
  return match?.[1]?.toLowerCase() ?? (/^([a-z][a-z0-9+.-]*:)/i.exec(uri)?.[1]?.toLowerCase() || '');
}

const push = (map: Map<string, string[]>, key: string, server: string) => {
  const list = map.get(key);
  if (!list) map.set(key, [server]);
  else if (!list.includes(server)) list.push(server);
};

export function buildResourceRoutes(records: readonly ServerWithTools[]): ResourceRoutes {
  const sorted = inInstallOrder(records);
  const plan = uiUriPlan(sorted);
  const resources = listedResources(sorted) as CachedResource[];
  const templates = listedTemplates(sorted) as CachedResourceTemplate[];
  const byUri = new Map<string, string[]>();
  const byTemplate = new Map<string, string[]>();
  const byOrigin = new Map<string, string[]>();
  const matchers: { server: string; template: UriTemplate }[] = [];
  for (const record of sorted) {
    for (const resource of record.surface?.resources ?? []) {
      push(byUri, shownUri(plan, record.name, resource.uri), record.name);
      push(byOrigin, originOf(resource.uri), record.name);
    }
    for (const template of record.surface?.resourceTemplates ?? []) {
      push(byTemplate, template.uriTemplate, record.name);
      push(byOrigin, originOf(template.uriTemplate), record.name);
      try {
        matchers.push({ server: record.name, template: new UriTemplate(template.uriTemplate) });
      } catch {
        // A template hub cannot parse is still listed; reads reach it by origin.
      }
    }
  }
  const owners = (uri: string): readonly string[] => {
    // hub:// is hub's own (tools/hub-resources.ts): no server's listing or template takes it.
    if (/^hub:/i.test(uri)) return [];
    const renamed = plan.own.get(uri);
    if (renamed) return [renamed.server];
    const listed = byUri.get(uri);
    if (listed) return listed;
    const matched = [...new Set(matchers.filter(m => safeMatch(m.template, uri)).map(m => m.server))];
    if (matched.length > 0) return matched;
    const origin = originOf(uri);
    return origin === '' ? [] : (byOrigin.get(origin) ?? []);
  };
  const signature = createHash('sha256')
    .update(JSON.stringify([resources, templates]))
    .digest('hex');
  return {
    resources,
    templates,
    owners,
    childUri: uri => plan.own.get(uri)?.uri ?? uri,
    templateOwners: uriTemplate => byTemplate.get(uriTemplate) ?? [],
    signature,
  };
}

// A child's template may be odd enough to make the matcher throw (or a URI too long for it).
function safeMatch(template: UriTemplate, uri: string): boolean {
  try {
    return template.match(uri) !== null;
  } catch {
    return false;
  }
}
