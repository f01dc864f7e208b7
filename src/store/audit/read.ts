// The audit log read back for `hub audit` and the dashboard: entries, filters and time spans.
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { HubError } from '../../core/errors.js';
import type { AuditKind } from './line.js';
import { auditFiles } from './rotate.js';

/** One line of the log as read back (hub audit, the dashboard): the fields audit-line.ts writes. */
export type AuditEntry = Record<string, unknown> & { readonly t: string; readonly kind: AuditKind };

/** `hub audit`'s filters, the dashboard's too. Every one given must match. */
export interface AuditFilter {
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly server?: string | undefined;
  /** A tool by its own name, or as exposed (server.tool, server_tool). */
  readonly tool?: string | undefined;
  /** A session id as written (pid.s<n>), or its s<n> part. */
  readonly session?: string | undefined;
  /** A process id or name. */
  readonly process?: string | undefined;
  /** Questions to the person and their answers only. */
  readonly decisions?: boolean | undefined;
  readonly kind?: AuditKind | undefined;
}

const RELATIVE = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** --since/--until: an ISO time (2026-11-27T15:00, 2026-11-27), or a span back from now (90m, 2h, 7d). */
export function parseAuditTime(field: string, text: string, now = Date.now()): number {
  const relative = RELATIVE.exec(text.trim());
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed))
    throw new HubError(
      'INVALID_INPUT',
      `${field} "${text}" is not a time: give an ISO time such as 2026-11-27T15:00 (local) or 2026-11-27T15:00Z, or a span back from now such as 90m, 2h or 7d.`,
    );
  return parsed;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function matchesAudit(entry: AuditEntry, filter: AuditFilter): boolean {
  const t = Date.parse(entry.t);
  if (filter.since !== undefined && !(t >= filter.since)) return false;
  if (filter.until !== undefined && !(t <= filter.until)) return false;
  if (filter.kind !== undefined && entry.kind !== filter.kind) return false;
  if (filter.decisions && entry.kind !== 'decision') return false;
  const server = text(entry.server);
  if (filter.server !== undefined && server !== filter.server) return false;
  if (filter.tool !== undefined) {
    const tool = text(entry.tool);
    const names = tool === undefined ? [] : [tool, `${server}.${tool}`, `${server}_${tool}`];
    if (!names.includes(filter.tool)) return false;
  }
  if (filter.session !== undefined) {
    const session = text(entry.session) ?? '';
    if (session !== filter.session && !session.endsWith(`.${filter.session}`)) return false;
  }
  if (filter.process !== undefined && entry.process !== filter.process && entry.name !== filter.process) return false;
  return true;
}

/** A line as an entry, or undefined when it is not one (a line cut by a full disk). */
export function parseAuditLine(line: string): AuditEntry | undefined {
  if (line.length === 0) return undefined;
  try {
    const entry = JSON.parse(line) as AuditEntry;
    return entry !== null && typeof entry === 'object' && typeof entry.t === 'string' && typeof entry.kind === 'string'
      ? entry
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every entry that matches, oldest first, read a line at a time (files are never loaded whole);
 * `limit` keeps the newest that many. Files last written before `since` are not opened.
 */
export async function readAudit(
  dir: string,
  filter: AuditFilter,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ entries: AuditEntry[]; unreadable: number }> {
  const entries: AuditEntry[] = [];
  let unreadable = 0;
  for (const file of auditFiles(dir)) {
    try {
      if (filter.since !== undefined && statSync(file).mtimeMs < filter.since) continue;
    } catch {
      continue;
    }
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        const entry = parseAuditLine(line);
        if (entry === undefined) {
          if (line.length > 0) unreadable += 1;
          continue;
        }
        if (!matchesAudit(entry, filter)) continue;
        entries.push(entry);
        if (entries.length > limit) entries.shift();
      }
    } catch {
      // Rotated away and swept while read: its lines are gone.
    }
  }
  return { entries, unreadable };
}
