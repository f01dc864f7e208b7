// The real tools/list of published MCP servers (test/fixtures/tool-lists/), as store records.
import { readdirSync, readFileSync } from 'node:fs';
import type { CachedTool, ServerWithTools } from '../../src/store/schema.js';
import { fixture } from './hub.js';

export interface ToolList {
  readonly server: string;
  readonly package: string;
  readonly version: string;
  readonly tools: CachedTool[];
}

export interface LabelledQuery {
  readonly query: string;
  /** Acceptable answers as "server/tool" (the child's own tool name). */
  readonly expect: readonly string[];
}

export function toolLists(): ToolList[] {
  const dir = fixture('tool-lists');
  return readdirSync(dir)
    .filter(file => file.endsWith('.json') && file !== 'queries.json')
    .sort()
    .map(file => JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as ToolList);
}

export const labelledQueries = (): LabelledQuery[] =>
  JSON.parse(readFileSync(fixture('tool-lists/queries.json'), 'utf8')) as LabelledQuery[];

/** Store records (command mode, never started) carrying each list as its cached tools. */
export const toolListRecords = (lists: readonly ToolList[] = toolLists()): ServerWithTools[] =>
  lists.map((list, index) => ({
    name: list.server,
    package: list.package,
    version: list.version,
    command: process.execPath,
    args: ['-e', 'process.exit(1)'],
    env: {},
    mode: 'command',
    installedAt: new Date(0).toISOString(),
    order: index + 1,
    autoStart: false,
    tools: list.tools,
  }));
