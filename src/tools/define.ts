// What every hub tool is: its deps, call context, schemas and run(), and a group of tools.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ManagerDeps } from '../proxy/manager-types.js';

/**
 * What every tool group is built from: what the proxy is built from (config, log, store, and the
 * client side it relays to, proxy/sessions/client-side.ts), and the MCP server itself.
 */
export interface ToolDeps extends ManagerDeps {
  /** The MCP server facing the client: install consent elicits through it. */
  readonly server: Server;
  /** This session's exposure (tools/exposed-tools.ts): told of installs, says how the session reaches new tools. */
  readonly exposure?: { installed(server: string): string | undefined };
  /** The client's environment (its entry's env on a shared hub): installs run npm with its npm variables. */
  readonly sessionEnv?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Per-call context handed to run(): the caller's abort signal and progress reporting. */
export interface CallContext {
  readonly signal: AbortSignal;
  readonly progressToken: string | number | undefined;
  /** Sends notifications/progress to the caller when it gave a progress token; no-op otherwise. */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** The raw SDK request context, for relaying requests (elicitation) to the client. */
  readonly extra: unknown;
}

/**
 * A structured result plus its short text rendering (and content after the text, such as a
 * resource_link to what the result is about), or a result passed through untouched.
 */
export type ToolOutput<Output> =
  | {
      structured: Output;
      text: string;
      content?: readonly ContentBlock[];
      /** A refusal that still reports state in the output schema (a consent refusal's command). */
      isError?: true;
    }
  | { passthrough: CallToolResult };

export interface HubTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType> {
  /** The dotted name (docs/tools.md "Tool names"): registry.search, start_process. */
  readonly name: string;
  readonly title: string;
  /** Model-facing: what it does, its side effects, what to call next. */
  readonly description: string;
  /** The only schema of the input: listed JSON Schema, validation and the TS type. */
  readonly input: Input;
  /**
   * The schema of structuredContent, listed as outputSchema. None for a tool that passes another
   * server's result through (registry.call): a listed one makes clients require structuredContent.
   */
  readonly output?: Output;
  readonly annotations?: ToolAnnotations;
  run(input: z.infer<Input>, call: CallContext): Promise<ToolOutput<z.infer<Output>>>;
}

export const defineTool = <Input extends z.ZodObject, Output extends z.ZodType>(
  tool: HubTool<Input, Output>,
): HubTool<Input, Output> => tool;

/** A set of tools built from the shared deps, with whatever it must release at shutdown. */
export interface ToolGroup {
  readonly tools: readonly HubTool[];
  close?(): Promise<void>;
}
