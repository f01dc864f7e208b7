// What resources/list and resources/templates/list show of the installed servers: every server's
// cached list in install order, each as the child gave it (URIs are never renamed). Pure, so the
// cold-start lane lists exactly what the full hub lists (resource-routes.ts).

type Json = Record<string, unknown>;

interface WithSurface {
  readonly name: string;
  readonly order: number;
  readonly surface?: { readonly resources: readonly Json[]; readonly resourceTemplates: readonly Json[] } | undefined;
}

/** Servers in install order (then by name): the order of every proxied list. */
export const inInstallOrder = <T extends { name: string; order: number }>(records: readonly T[]): T[] =>
  [...records].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));

export const listedResources = (records: readonly WithSurface[]): Json[] =>
  inInstallOrder(records).flatMap(record => record.surface?.resources ?? []);

export const listedTemplates = (records: readonly WithSurface[]): Json[] =>
  inInstallOrder(records).flatMap(record => record.surface?.resourceTemplates ?? []);
