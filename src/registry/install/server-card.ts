// registry.install { url }: the remote's MCP Server Card (SEP-2127), read before hub connects, so
// the consent question says what the person is agreeing to (whether it wants a sign-in, which
// tools it offers). The card is advice from the server itself, never a reason to refuse: a
// missing, broken, oversized, slow or foreign card is said in one line and the install goes on.
// Bounded: one GET, no redirect followed, CARD_LIMITS.bytes read at most, CARD_LIMITS.timeoutMs.
import { z } from 'zod';
import { errorMessage } from '../../core/errors.js';

export const CARD_PATH = '/.well-known/mcp/server-card.json';
export const CARD_LIMITS = { bytes: 64 * 1024, timeoutMs: 3_000, tools: 20, chars: 80 } as const;

const RemoteSchema = z.looseObject({
  type: z.string().optional(),
  url: z.string().optional(),
  authentication: z
    .looseObject({ required: z.boolean().optional(), schemes: z.array(z.string()).optional() })
    .optional(),
  headers: z
    .array(z.looseObject({ name: z.string(), isRequired: z.boolean().optional(), isSecret: z.boolean().optional() }))
    .optional(),
});

export const ServerCardSchema = z.looseObject({
  name: z.string(),
  version: z.string().optional(),
  title: z.string().optional(),
  remotes: z.array(RemoteSchema).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
});
export type ServerCard = z.infer<typeof ServerCardSchema>;

/** What the card said, as lines for the consent question (and the log). */
export interface CardReading {
  readonly url: string;
  readonly card?: ServerCard;
  readonly lines: readonly string[];
}

// The card's words reach a person: one line each, no control characters, bounded.
const shown = (text: string): string =>
  JSON.stringify(text.replace(/[\p{Cc}\p{Cf}]/gu, ' ').slice(0, CARD_LIMITS.chars));

// The same endpoint whatever the spelling: origin and path, no trailing slash, no query or fragment.
const endpoint = (text: string): string | undefined => {
  try {
    const url = new URL(text);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
};

/** The body, at most `limit` bytes; undefined when it is longer. */
async function boundedText(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return declared > limit ? undefined : '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Lines for a card that describes the server at `target`. */
function describe(card: ServerCard, target: string, cardUrl: string): string[] {
  const remote = card.remotes?.find(entry => entry.url !== undefined && endpoint(entry.url) === target);
  const auth = remote?.authentication ?? card.remotes?.find(entry => entry.authentication)?.authentication;
  const lines = [
    `Its server card (${cardUrl}) says, before hub connects:`,
    `  server: ${shown(card.title ?? card.name)}${card.version === undefined ? '' : ` version ${shown(card.version)}`}`,
    auth === undefined
      ? '  sign-in: not stated'
      : auth.required
        ? `  sign-in: required${auth.schemes?.length ? ` (${auth.schemes.slice(0, 5).map(shown).join(', ')})` : ''}`
        : '  sign-in: not required',
  ];
  const headers = (remote?.headers ?? []).filter(header => header.isRequired);
  if (headers.length > 0)
    lines.push(
      `  headers it needs: ${headers
        .slice(0, 10)
        .map(header => `${shown(header.name)}${header.isSecret ? ' (secret)' : ''}`)
        .join(', ')}`,
    );
  if (card.tools !== undefined) {
    const names = card.tools.slice(0, CARD_LIMITS.tools).map(tool => shown(tool.name));
    const more = card.tools.length - names.length;
    lines.push(`  tools (${card.tools.length}): ${names.join(', ') || 'none'}${more > 0 ? `, and ${more} more` : ''}`);
  } else lines.push('  tools: not listed on the card (hub lists them once connected)');
  return lines;
}

/** Reads the card of the server at `url`; never throws, never takes longer than the timeout. */
export async function readServerCard(url: URL, timeoutMs: number = CARD_LIMITS.timeoutMs): Promise<CardReading> {
  const cardUrl = new URL(CARD_PATH, url.origin).href;
  const skipped = (why: string): CardReading => ({
    url: cardUrl,
    lines: [`Its server card (${cardUrl}) was not used: ${why}. hub connects without it.`],
  });
  let text: string | undefined;
  try {
    const response = await fetch(cardUrl, {
      redirect: 'manual',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel().catch(() => undefined);
      return { url: cardUrl, lines: [`It publishes no server card (${cardUrl}: ${response.status}).`] };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return skipped(`the server answered HTTP ${response.status}`);
    }
    text = await boundedText(response, CARD_LIMITS.bytes);
  } catch (error) {
    const name = (error as Error).name;
    return skipped(
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${timeoutMs} ms`
        : `it could not be read (${errorMessage(error).slice(0, 200)})`,
    );
  }
  if (text === undefined) return skipped(`it is larger than hub's limit of ${CARD_LIMITS.bytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return skipped('it is not JSON');
  }
  const parsed = ServerCardSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return skipped(
      `it is not a server card (field "${issue?.path.join('.') || '(root)'}": ${issue?.message ?? 'not valid'})`,
    );
  }
  const card = parsed.data;
  const target = endpoint(url.href) ?? url.href;
  const remotes = (card.remotes ?? []).flatMap(entry => (entry.url === undefined ? [] : [entry.url]));
  if (remotes.length > 0 && !remotes.some(remote => endpoint(remote) === target))
    return skipped(
      `it names another server (${shown(card.name)} at ${remotes.slice(0, 3).map(shown).join(', ')}), not ${url.href}`,
    );
  return { url: cardUrl, card, lines: describe(card, target, cardUrl) };
}
