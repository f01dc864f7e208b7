// hub's own hub:// resource URIs, built and parsed only here so links and resources agree.
import { ErrorCode, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { REFERENCE_PATTERN } from '../process/keeper/ids.js';
import { RpcError } from '../wire/rpc-error.js';
import { logResource } from '../core/process-log-listing.js';

export { logResource, logUri } from '../core/process-log-listing.js';

// hub's own resource URIs (docs/tools.md "hub's own resources"): built and parsed only here, so the
// resource_links in tool results and the resources hub serves can never disagree.

export const PROCESSES_URI = 'hub://processes';
export const SERVERS_URI = 'hub://servers';
export const LOG_URI_TEMPLATE = 'hub://processes/{id}/log';
export const LOG_LINES_DEFAULT = 100;
export const LOG_LINES_MAX = 2_000;

export type HubUri =
  | { readonly kind: 'processes' }
  | { readonly kind: 'servers' }
  | {
      readonly kind: 'log';
      /** An id or a name, as get_process_logs takes it. */
      readonly reference: string;
      /** A next_cursor from an earlier read: only output written since. */
      readonly cursor: number | undefined;
      readonly lines: number;
    };

export const isHubUri = (uri: string): boolean => /^hub:\/\//i.test(uri);

const KNOWN =
  'hub\'s own resources are hub://processes, hub://servers and hub://processes/{id}/log (id or name as list_processes shows it; optional "?cursor=N" from next_cursor, "&lines=N" up to 2000)';

/** -32602 naming the URI and the fix: what resources/read, subscribe and unsubscribe answer for a bad hub:// URI. */
export function badUri(uri: string, problem: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Resource ${JSON.stringify(uri)}: ${problem}`, { uri });
}

function integerParam(uri: string, name: string, text: string, min: number, max: number): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < min || Number(text) > max)
    throw badUri(uri, `"${name}" must be a whole number from ${min} to ${max}, got "${text}".`);
  return Number(text);
}

export function parseHubUri(uri: string): HubUri {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw badUri(uri, `not a valid URI; ${KNOWN}.`);
  }
  const path = url.pathname.replace(/\/$/, '');
  const params = [...url.searchParams.entries()];
  if (url.protocol !== 'hub:' || url.hash !== '' || url.username !== '' || url.port !== '')
    throw badUri(uri, `not one of hub's resources; ${KNOWN}.`);
  if (url.host === 'servers' && path === '') {
    if (params.length > 0) throw badUri(uri, 'hub://servers takes no query; read it as "hub://servers".');
    return { kind: 'servers' };
  }
  if (url.host !== 'processes') throw badUri(uri, `unknown resource; ${KNOWN}.`);
  if (path === '') {
    if (params.length > 0) throw badUri(uri, 'hub://processes takes no query; read it as "hub://processes".');
    return { kind: 'processes' };
  }
  const match = /^\/([^/]+)\/log$/.exec(path);
  if (!match) throw badUri(uri, `unknown resource; ${KNOWN}.`);
  let reference: string;
  try {
    reference = decodeURIComponent(match[1]!);
  } catch {
    reference = '';
  }
  if (!REFERENCE_PATTERN.test(reference))
    throw badUri(
      uri,
      `"${match[1]}" is not a process id or name (letters, digits, ".", "_", "-"); hub://processes lists the ids.`,
    );
  let cursor: number | undefined;
  let lines = LOG_LINES_DEFAULT;
  for (const [name, value] of params) {
    if (name === 'cursor') cursor = integerParam(uri, 'cursor', value, 0, Number.MAX_SAFE_INTEGER);
    else if (name === 'lines') lines = integerParam(uri, 'lines', value, 1, LOG_LINES_MAX);
    else
      throw badUri(
        uri,
        `unknown query parameter "${name}": a log URI takes only "cursor" (a next_cursor) and "lines" (1–${LOG_LINES_MAX}).`,
      );
  }
  return { kind: 'log', reference, cursor, lines };
}

export const logLink = (process: Parameters<typeof logResource>[0]): ResourceLink => ({
  type: 'resource_link',
  ...logResource(process),
});
