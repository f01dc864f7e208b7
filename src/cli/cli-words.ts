// Tool calls in hub's texts reworded as the CLI commands a person types instead.
import { spellText } from '../core/naming.js';
import { COMMAND_NAME } from '../core/package-name.js';

// The process and registry code words its texts for MCP clients ("kill_process {"id":"web"}").
// A person at the CLI is told the command to type instead; a tool name with no command left
// over is spelled as MCP clients see it (registry_list, not registry.list).

const C = COMMAND_NAME;
const ID = String.raw`\{"id":"([^"]+)"\}`;
const WORDS: readonly (readonly [RegExp, string])[] = [
  [/\bkill_process \{"id":"([^"]+)","remove":true\}/g, `${C} kill $1 --remove`],
  [new RegExp(String.raw`\b(?:call )?kill_process ${ID}`, 'g'), `${C} kill $1`],
  [new RegExp(String.raw`\b(?:call )?restart_process ${ID}`, 'g'), `${C} restart $1`],
  [new RegExp(String.raw`\b(?:call )?get_process_logs ${ID}`, 'g'), `${C} logs $1`],
  [/\bkill_process "([^"]+)"/g, `${C} kill $1`],
  [/\bstart_process it again with env\b/g, `${C} start it again with --env`],
  [/\bwith tty: true\b/g, 'with --tty'],
  [/\bkill_process\b/g, `${C} kill`],
  [/\brestart_process\b/g, `${C} restart`],
  [/\bget_process_logs\b/g, `${C} logs`],
  [/\bstart_process\b/g, `${C} start`],
  [/\blist_processes\b/g, `${C} ps`],
  [/\bcall registry\.list(?: \{ ?server ?\})?/g, `run ${C} servers`],
  [/\bregistry\.list(?: \{ ?server ?\})?/g, `${C} servers`],
  [/\bregistry\.search\b/g, `${C} search`],
  [/\bregistry\.install\b/g, `${C} install`],
  [/\bregistry\.uninstall\b/g, `${C} uninstall`],
];

/** text as a person at the CLI acts on it: CLI commands for the tool calls it suggests. */
export function cliWords(text: string): string {
  let worded = text;
  for (const [pattern, replacement] of WORDS) worded = worded.replace(pattern, replacement);
  return spellText(worded, 'underscore');
}
