// Malformed JSON-RPC requests answered with -32600, and the SDK's params errors rewritten as -32602.
import { cut } from '../core/clip.js';

/**
 * Why a message that looks like a request (it has an id and a method) is not a valid JSON-RPC
 * request, or undefined when it is one. The SDK drops such messages without a word, which leaves
 * the client waiting for an answer that never comes; hub answers them with -32600 instead.
 * Checked by hand (no zod) because every incoming line passes here.
 */
export function invalidRequestReason(message: Record<string, unknown>): string | undefined {
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof message.method !== 'string') return 'method must be a string';
  const params = message.params;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
    return 'params must be an object when present';
  const meta = (params as Record<string, unknown> | undefined)?._meta;
  if (meta !== undefined && (meta === null || typeof meta !== 'object' || Array.isArray(meta)))
    return 'params._meta must be an object when present';
  return undefined;
}

/** The id of a message that expects an answer: a string or an integer, as JSON-RPC allows. */
export function answerableId(message: Record<string, unknown>): string | number | undefined {
  const id = message.id;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return undefined;
}

interface ZodIssueLike {
  path?: unknown;
  message?: unknown;
}

/**
 * The SDK answers a request whose params fail its schema with -32603 and the ZodError's JSON
 * dump as message. That is the client's mistake, not hub's: rewritten as -32602 with one line
 * per field ("params.cursor: Invalid input: expected string, received number").
 */
export function invalidParamsFromSdk(error: {
  code: number;
  message: string;
}): { code: number; message: string } | undefined {
  if (error.code !== -32603 || !error.message.startsWith('[')) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const lines: string[] = [];
  for (const issue of issues as ZodIssueLike[]) {
    if (typeof issue?.message !== 'string' || !Array.isArray(issue.path)) return undefined;
    lines.push(`${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
  }
  const text = `Invalid params: ${lines.join('; ')}`;
  return { code: -32602, message: cut(text, 1000) };
}
