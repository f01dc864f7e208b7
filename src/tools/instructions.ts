// hub's instructions at initialize: what hub is for, then what the installed servers said of
// themselves (proxy/listing/instructions-section.ts), in the session's spelling of tool names.
import { spellText, type NameMode } from '../core/naming.js';
import { instructionsSectionFromDb } from '../proxy/listing/instructions-section.js';

// Written with dotted names; spelled the way the client sees them when the server is built.
const INSTRUCTIONS =
  'hub finds, installs and runs other MCP servers (registry.search → registry.install; their tools then appear as <server>.<tool>, ' +
  'or call them with registry.call after registry.list {server}; tools.search finds installed tools that are not listed) ' +
  'and runs long-lived dev processes that survive restarts ' +
  '(start_process with wait_for, list_processes, get_process_logs with a cursor, kill_process, get_free_port; ' +
  'send_input, get_process_screen and restart_process for prompts, REPLs and terminals).';

export const hubInstructions = (db: string, mode: NameMode): string =>
  spellText(INSTRUCTIONS + instructionsSectionFromDb(db), mode);
