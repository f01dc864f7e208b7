// What resources/list and resources/templates/list show of the installed servers: every server's
// cached list in install order, each as the child gave it (URIs are never renamed, but for a ui://
// URI two servers share: app-uris.ts). Pure, so the cold-start lane lists exactly what the full
// hub lists (resource-routes.ts).
import { shownUri, uiUriPlan } from './app-uris.js';

type Json = Record<string, unknown>;

interface WithSurface {
  readonly name: string;
  readonly order: number;
  readonly surface?: { readonly resources: readonly Json[]; readonly resourceTemplates: readonly Json[] } | undefined;
  readonly tools?: readonly Json[] | undefined;
}

/** Servers in install order (then by name): the order of every proxied list. */
export const inInstallOrder = <T extends { name: string; order: number }>(records: readonly T[]): T[] =>
  [...records].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));

export function listedResources(records: readonly WithSurface[]): Json[] {
  const plan = uiUriPlan(records);
  return inInstallOrder(records).flatMap(record =>
    (record.surface?.resources ?? []).map(resource => {
      const uri = shownUri(plan, record.name, resource.uri as string);
      return uri === resource.uri ? resource : { ...resource, uri };
    }),
  );
}

export const listedTemplates = (records: readonly WithSurface[]): Json[] =>
  inInstallOrder(records).flatMap(record => record.surface?.resourceTemplates ?? []);
