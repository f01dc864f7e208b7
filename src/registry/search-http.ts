import type { z } from 'zod';
import { HubError } from '../errors.js';

// GET a JSON document for a search source. Failures become HubErrors naming the source and the
// next step; an abort (the source's timeout) is rethrown as is so the caller can tell it apart.
export async function getJson(url: URL, subject: string, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    // A signal of its own per request: many parallel fetches on one signal trip Node's listener warning.
    response = await fetch(url, { signal: AbortSignal.any([signal]), headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new HubError('REGISTRY_UNAVAILABLE', `${subject} at ${url.origin} could not be reached (${causeOf(error)}); check the URL and your network.`, { cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new HubError('REGISTRY_UNAVAILABLE', `${subject} answered HTTP ${response.status} for ${url.pathname}; try again later or check the URL.`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new HubError('REGISTRY_UNAVAILABLE', `${subject} dropped the connection while answering ${url.pathname}.`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HubError('REGISTRY_BAD_RESPONSE', `${subject} sent a body that is not JSON for ${url.pathname}; is the URL a registry API?`, { cause: error });
  }
}

/** Validates a registry answer against the fields hub uses; anything missing is REGISTRY_BAD_RESPONSE. */
export function parseAnswer<T extends z.ZodType>(schema: T, body: unknown, subject: string, url: URL): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new HubError('REGISTRY_BAD_RESPONSE', `${subject} sent an unexpected answer for ${url.pathname}${where}: ${issue?.message ?? 'invalid'}.`);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
