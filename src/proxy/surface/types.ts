// ProxiedSurface: everything the children offer besides tools, as hub.ts registers it.
import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { NameMode } from '../../core/naming.js';
import type { ReadCall, ResourceSource } from './resource-source.js';

type Json = Record<string, unknown>;

/** Everything a child offers besides tools, proxied (hub.ts registers the handlers over it). */
export interface ProxiedSurface {
  /** The installed servers' resources and templates, as one ResourceSource. */
  readonly resources: ResourceSource & Required<Pick<ResourceSource, 'complete'>>;
  /** Every server's prompts, exposed names in the given mode, deterministic order. */
  prompts(mode: NameMode): Json[];
  getPrompt(name: string, args: Record<string, string> | undefined, call: ReadCall): Promise<GetPromptResult>;
  /** completion/complete for a prompt's argument (ref/prompt, hub's exposed name). */
  completePrompt(params: CompleteRequest['params'], call: ReadCall): Promise<CompleteResult | undefined>;
  /** logging/setLevel: to every running child now, and to each child started later. */
  setLogLevel(level: LoggingLevel): Promise<void>;
}
