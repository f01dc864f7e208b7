// registry.install { url }: a remote MCP server (Streamable HTTP or HTTP+SSE) registered, not installed.
import { HubError } from '../../core/errors.js';
import { checkHeaders, headerVariables } from '../../proxy/child/remote-headers.js';
import type { ServerRecord } from '../../store/schema.js';
import type { InstallContext, InstallRequest } from './context.js';
import { finish, saveRecord } from './record.js';
import { confirmDroppingKept } from '../decisions/kept-decisions.js';
import type { InstallResult } from './result.js';
import { checkEnvKeys, checkServerName } from './target.js';
import { deriveServerName } from '../sources/server-name.js';
import { readServerCard } from './server-card.js';

const MAX_URL_CHARS = 2048;
// Host labels that say nothing about which service it is.
const GENERIC_LABELS = new Set(['www', 'mcp', 'api', 'server', 'servers', 'remote', 'app', 'localhost']);

/** The URL, checked: http or https with a host, no credentials in it. */
export function checkRemoteUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new HubError(
      'INVALID_INPUT',
      `Field "url" ${JSON.stringify(text.slice(0, 200))} is not a URL; give the server's full address, e.g. "https://mcp.example.com/mcp".`,
    );
  }
  if (text.length > MAX_URL_CHARS)
    throw new HubError('INVALID_INPUT', `Field "url" is longer than ${MAX_URL_CHARS} characters.`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new HubError(
      'INVALID_INPUT',
      `Field "url" must be an http or https URL (got ${url.protocol}); stdio servers are installed with "package" or "command".`,
    );
  if (url.username || url.password)
    throw new HubError(
      'INVALID_INPUT',
      'Field "url" must not hold a user name or password: pass credentials in "headers" (for example {"Authorization": "Bearer ${TOKEN}"}), where they stay secret.',
    );
  return url;
}

/** A server name from the host: `https://mcp.linear.app/sse` → `linear`; "" when the host says nothing (an IP address). */
export function nameFromUrl(url: URL): string {
  const labels = url.hostname.split('.').filter(label => /[a-z]/.test(label));
  const meaningful = labels.slice(0, labels.length > 1 ? -1 : undefined).filter(label => !GENERIC_LABELS.has(label));
  const label = meaningful[meaningful.length - 1];
  return label === undefined ? '' : deriveServerName(label);
}

/** Registers (or reconfigures) a remote server, then connects to it as finish() does for every install. */
export async function installRemote(request: InstallRequest, context: InstallContext): Promise<InstallResult> {
  const url = checkRemoteUrl(request.url ?? '');
  if (request.args !== undefined || request.allowScripts !== undefined || request.upgrade !== undefined)
    throw new HubError(
      'INVALID_INPUT',
      'Fields "args", "allowScripts" and "upgrade" are for local servers; a remote server ("url") takes "headers", "env" and "transport".',
    );
  const headers = { ...request.headers };
  checkHeaders(headers);
  const env = { ...request.env };
  checkEnvKeys(env);
  const derived = request.name === undefined ? nameFromUrl(url) : undefined;
  if (derived === '')
    throw new HubError(
      'INVALID_INPUT',
      `Field "name" is required for ${url.host}: its address does not name the service; pick a short server name (for example "docs").`,
    );
  const name = checkServerName(request.name ?? derived ?? '', derived === undefined ? undefined : url.host);
  const remote: NonNullable<ServerRecord['remote']> = {
    url: url.href,
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(request.transport !== undefined && { transport: request.transport }),
  };
  // Variables the headers name that neither env nor hub's environment sets: not started without them.
  const unset = (record: ServerRecord) =>
    headerVariables(record.remote?.headers ?? {}).filter(variable => !record.env[variable] && !process.env[variable]);
  const start = request.start !== false;
  const existing = (await context.store.read()).servers[name];
  if (existing) {
    if (existing.remote?.url !== remote.url)
      throw new HubError(
        'ALREADY_EXISTS',
        `A server named "${name}" is already installed (${existing.remote ? `remote ${existing.remote.url}` : existing.package ? `package ${existing.package}` : `command ${existing.command}`}); pick another name with "name", or remove it first with registry.uninstall { name: "${name}" }.`,
      );
    // The same URL again: new headers, env or transport for it (the others are kept).
    const record = await context.store.update(data => {
      const current = data.servers[name];
      if (!current?.remote)
        throw new HubError('NOT_FOUND', `Server "${name}" was uninstalled meanwhile; call registry.install again.`);
      current.remote = {
        ...current.remote,
        ...remote,
        ...((current.remote.headers || remote.headers) && { headers: { ...current.remote.headers, ...headers } }),
      };
      current.env = { ...current.env, ...env };
      return current;
    });
    await context.manager.stop(name);
    return finish(record, unset(record), start, context);
  }
  const dropKept = await confirmDroppingKept(context, name, `url ${url.href}`);
  // What the remote says of itself (server-card.ts), in the question: read first, never blocking.
  const card = await readServerCard(url);
  context.log.info({ server: name, card: card.url, said: card.lines }, 'server card read before connecting');
  await context.confirm({
    name,
    package: undefined,
    installLine: undefined,
    launchLine: `connect to ${url.href}`,
    card: card.lines.join('\n'),
  });
  const record = await saveRecord(
    context,
    { name, command: url.href, args: [], env, mode: 'command', kind: 'remote', remote },
    dropKept,
  );
  return finish(record, unset(record), start, context, true);
}
