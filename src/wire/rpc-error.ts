// JSON-RPC errors passed on word for word, and a child's error labelled as the child's.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../core/errors.js';
import { cut } from '../core/clip.js';

/**
 * A JSON-RPC error sent as it is: the SDK's McpError writes `MCP error <code>: ` into its own
 * message, and every SDK client adds that prefix again, so a child's error passed on as an
 * McpError read `MCP error -32602: MCP error -32602: …`. The SDK Server sends `code`, `message`
 * and `data` of whatever a handler throws, so this keeps a child's error word for word.
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The error member of a child's response, as the child wrote it (a code that is not an integer becomes -32603). */
  static fromChild(error: { code?: unknown; message?: unknown; data?: unknown }): RpcError {
    const code = Number.isSafeInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
    const message = typeof error.message === 'string' ? error.message : 'error from the server';
    return new RpcError(code, message, error.data);
  }
}

const MCP_PREFIX = /^MCP error -?\d+: /;

/** The JSON-RPC error member for an error thrown on a call, without the McpError prefix. */
export function rpcErrorMember(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError || error instanceof McpError) {
    // Only McpError added a prefix; a child's own message is kept even when it looks like one.
    const message = error instanceof McpError ? error.message.replace(MCP_PREFIX, '') : error.message;
    return { code: error.code, message, ...(error.data === undefined ? {} : { data: error.data }) };
  }
  return { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}

/** A child's JSON-RPC error as registry.call reports it: the child's code, message and data, labelled as the child's. */
export function childError(server: string, tool: string, error: RpcError): HubError {
  const data = error.data === undefined ? '' : ` (data: ${capJson(error.data)})`;
  return new HubError(
    'CHILD_ERROR',
    `Server "${server}" answered ${tool} with JSON-RPC error ${error.code}: ${cap(error.message)}${data}. This is the server's own error: check the arguments against registry.list { server: "${server}" }.`,
  );
}

// A child's odd message or `data` (huge, deep) is shown cut to a readable size.
const cap = (text: string): string => cut(text, 2000);
const capJson = (value: unknown): string => cap(JSON.stringify(value) ?? String(value));
