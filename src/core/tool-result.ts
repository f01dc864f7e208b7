// Tool results and errors as clients get them: text capped, errors short, zod issues by field.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { isHubError } from './errors.js';

const TRUNCATION_MARKER = '\n… [truncated: result exceeded the size limit]';

/** Cuts text to at most maxBytes of UTF-8, saying so. */
export function capText(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const room = Math.max(0, maxBytes - Buffer.byteLength(TRUNCATION_MARKER));
  return (
    Buffer.from(text)
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD$/, '') + TRUNCATION_MARKER
  );
}

export function successResult(structured: unknown, text: string, maxBytes: number): CallToolResult {
  return {
    content: [{ type: 'text', text: capText(text, maxBytes) }],
    structuredContent: structured as Record<string, unknown>,
  };
}

// An error names what failed and how to fix it; anything longer (an echoed input, a long
// stderr quote) is cut, so an error can never flood the client's context.
export const ERROR_CAP_BYTES = 8 * 1024;

// Errors are text only: the SDK client validates structuredContent even on isError results.
export function errorResult(error: unknown): CallToolResult {
  const text = isHubError(error)
    ? `${error.code}: ${error.message}`
    : `INTERNAL: ${error instanceof Error ? error.message : String(error)}`;
  return { content: [{ type: 'text', text: capText(text, ERROR_CAP_BYTES) }], isError: true };
}

/** One sentence per zod issue, naming the field: what an agent needs to fix its call. */
export function describeInputIssues(tool: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 4).map(issue => {
    const field = issue.path.length > 0 ? issue.path.join('.') : undefined;
    if (issue.code === 'unrecognized_keys') {
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map(k => `"${k}"`).join(', ')} (remove ${issue.keys.length > 1 ? 'them' : 'it'})`;
    }
    const message = issue.message.replace(/^Invalid input: /, '');
    return field ? `field "${field}": ${message}` : message;
  });
  return `Invalid arguments for ${tool}: ${parts.join('; ')}. Fix the field and call again (see the tool's input schema).`;
}
