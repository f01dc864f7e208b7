// GET /api/audit: `hub audit`'s filters as query parameters, the newest lines or every one.
import { HubError } from '../core/errors.js';
import { auditLog } from '../store/audit/log.js';
import type { AuditKind } from '../store/audit/line.js';
import { parseAuditTime, readAudit, type AuditEntry } from '../store/audit/read.js';
import type { HubPaths } from '../core/paths.js';

const KINDS: readonly string[] = ['call', 'process', 'install', 'uninstall', 'upgrade', 'configure', 'decision'];
// The page shows the newest this many; the export (all=1) gets every matching line.
const PAGE = 500;

const given = (value: string | null): string | undefined => (value === null || value.trim() === '' ? undefined : value);

/**
 * GET /api/audit: `hub audit`'s filters as query parameters (since, until, server, tool, session,
 * process, kind, decisions=1), the newest 500 lines, or every one with all=1 (the page's download).
 */
export async function auditQuery(
  paths: Pick<HubPaths, 'auditDir'>,
  query: URLSearchParams,
): Promise<{ entries: AuditEntry[]; unreadable: number; limited: boolean }> {
  const kind = given(query.get('kind'));
  if (kind !== undefined && !KINDS.includes(kind))
    throw new HubError('INVALID_INPUT', `Field "kind" must be one of ${KINDS.join(', ')}.`);
  const time = (field: string) => {
    const value = given(query.get(field));
    return value === undefined ? undefined : parseAuditTime(field, value);
  };
  // What this hub holds is written first, so the page shows the call it just saw.
  auditLog(paths).flush();
  const all = query.get('all') === '1';
  const { entries, unreadable } = await readAudit(
    paths.auditDir,
    {
      since: time('since'),
      until: time('until'),
      server: given(query.get('server')),
      tool: given(query.get('tool')),
      session: given(query.get('session')),
      process: given(query.get('process')),
      kind: kind as AuditKind | undefined,
      decisions: query.get('decisions') === '1',
    },
    all ? undefined : PAGE + 1,
  );
  const limited = entries.length > PAGE && !all;
  return { entries: limited ? entries.slice(1) : entries, unreadable, limited };
}
