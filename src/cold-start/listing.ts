// The build-time listing: what hub answers to initialize and lists as its own, loaded by version.
import { readFileSync } from 'node:fs';
import type { NameMode } from '../core/naming.js';

type Json = Record<string, unknown>;

/**
 * What hub answers to initialize and lists as its own tools (and resources), captured at build time from a real
 * hub (generate-listing.ts) so a cold start can answer before loading the SDK and zod.
 */
export interface FastStartListing {
  readonly hubVersion: string;
  readonly storeVersion: number;
  readonly protocol: { readonly latest: string; readonly supported: readonly string[] };
  /** The instructions name tools, so each spelling has its own answer. */
  readonly initialize: Record<
    NameMode,
    { readonly capabilities: Json; readonly serverInfo: Json; readonly instructions?: string }
  >;
  readonly tools: Record<NameMode, Json[]>;
  /** hub's own prompts, resources and templates (listed after the installed servers' ones). */
  readonly surface: { readonly prompts: Json[]; readonly resources: Json[]; readonly resourceTemplates: Json[] };
}

export const LISTING_FILE = new URL('./listing.json', import.meta.url);

/** The build's listing, or undefined (not built, unreadable, or from another hub version). */
export function loadListing(hubVersion: string): FastStartListing | undefined {
  try {
    const listing = JSON.parse(readFileSync(LISTING_FILE, 'utf8')) as FastStartListing;
    return listing.hubVersion === hubVersion &&
      Array.isArray(listing.tools?.dotted) &&
      Array.isArray(listing.surface?.resources) &&
      listing.initialize?.underscore !== undefined
      ? listing
      : undefined;
  } catch {
    return undefined;
  }
}
