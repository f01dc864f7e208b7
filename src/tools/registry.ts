import type { ProxiedTools } from '../proxy/types.js';
import type { ToolDeps, ToolGroup } from './define.js';

// registry.search/install/list/uninstall/call and the proxied tools of installed servers.
export function createRegistryTools(_deps: ToolDeps): ToolGroup & { proxied: ProxiedTools; close(): Promise<void> } {
  return { tools: [], proxied: { list: () => [], find: () => undefined }, close: async () => undefined };
}
