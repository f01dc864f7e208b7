// GET of a JSON document for a search source, with npm's CA and proxy, and its answer checked.
import type { z } from 'zod';
import { HubError } from '../../core/errors.js';
import { npmSettings } from '../npm/config.js';
import { httpGet, httpSettingsFrom, type HttpAnswer, type HttpSettings } from '../npm/http.js';

// The user's npm CA/proxy settings, read once per hub process on the first request; or those of
// the environment a session runs npm with (its npm_config_cafile, proxy: npm/config.ts caches them).
let settings: Promise<HttpSettings> | undefined;
const hubHttpSettings = (env?: Readonly<Record<string, string>>): Promise<HttpSettings> =>
  env === undefined
    ? (settings ??= npmSettings().then(npm => httpSettingsFrom(npm)))
    : npmSettings(env).then(npm => httpSettingsFrom(npm));
// Plain HTTP to this machine needs neither a CA nor a proxy: no npm run for a local registry.
const LOCAL: HttpSettings = {
  ca: undefined,
  rejectUnauthorized: true,
  httpsProxy: undefined,
  httpProxy: undefined,
  noproxy: [],
};
const isLocalHttp = (url: URL): boolean =>
  url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

// GET a JSON document for a search source. Failures become HubErrors naming the source and the
// next step; an abort (the source's timeout) is rethrown as is so the caller can tell it apart.
export async function getJson(
  url: URL,
  subject: string,
  signal: AbortSignal,
  /** The asking session's npm environment (npm/env.ts); undefined: the hub's own. */
  env?: Readonly<Record<string, string>>,
): Promise<unknown> {
  let response: HttpAnswer;
  try {
    response = await httpGet(
      url,
      isLocalHttp(url) ? LOCAL : await hubHttpSettings(env),
      { accept: 'application/json' },
      signal,
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new HubError(
      'REGISTRY_UNAVAILABLE',
      `${subject} at ${url.origin} could not be reached (${causeOf(error)}); ${hintFor(error)}`,
      { cause: error },
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw new HubError(
      'REGISTRY_UNAVAILABLE',
      `${subject} answered HTTP ${response.status} for ${url.pathname}; try again later or check the URL.`,
    );
  }
  const text = response.body;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HubError(
      'REGISTRY_BAD_RESPONSE',
      `${subject} sent a body that is not JSON for ${url.pathname}; is the URL a registry API?`,
      { cause: error },
    );
  }
}

/** Validates a registry answer against the fields hub uses; anything missing is REGISTRY_BAD_RESPONSE. */
export function parseAnswer<T extends z.ZodType>(schema: T, body: unknown, subject: string, url: URL): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new HubError(
    'REGISTRY_BAD_RESPONSE',
    `${subject} sent an unexpected answer for ${url.pathname}${where}: ${issue?.message ?? 'invalid'}.`,
  );
}

function causeOf(error: unknown): string {
  const own = (error as { code?: string }).code;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return own ?? cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

// A certificate error behind a company proxy is fixed in npm's config, which hub reads too.
function hintFor(error: unknown): string {
  return /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(causeOf(error))
    ? "the certificate is not trusted: set npm's cafile (npm config set cafile /path/to/ca.pem), which hub uses too."
    : 'check the URL and your network.';
}
