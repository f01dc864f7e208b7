// What a server slot is given by the manager that makes it: its settings, and the hooks through
// which it reports what its child told (generic over the slot, so this file needs no import of it).
import type { Logger } from '../../core/logger.js';
import type { AuditLog } from '../../store/audit/log.js';
import type { CachedTool } from '../../store/schema.js';
import type { ToolNeed } from '../listing/tool-needs.js';
import type { BackoffPolicy } from './backoff.js';
import type { ChildConnection, ChildSettings } from '../child/connection.js';

export interface SlotContextOf<Slot> {
  readonly log: Logger;
  readonly policy: BackoffPolicy;
  readonly startTimeoutMs: number;
  readonly idleStopMs: number;
  /** The same for every child: the client side its requests go to, grace periods. */
  readonly child: ChildSettings;
  readonly random: () => number;
  logFile(name: string): string;
  /** The child listed these tools (at start or after its list_changed). */
  toolsListed(slot: Slot, tools: CachedTool[]): Promise<void>;
  /** The child sent these instructions at initialize, and the record holds something else. */
  instructionsSeen(slot: Slot, instructions: string | undefined): Promise<void>;
  /** A child is ready (at each start), or said its prompts or resources changed: proxied-surface.ts takes it from here. */
  surfaceSeen?(slot: Slot, conn: ChildConnection, reason: 'start' | 'changed'): Promise<void>;
  readonly audit?: AuditLog;
  /** Where this hub publishes a server's state and metrics for other hubs and the CLI. */
  stateDir?(name: string): string;
  /** The child asked for `need` while only `tool` was in flight: the tool needs it (tool-needs.ts). */
  needSeen?(slot: Slot, tool: string, need: ToolNeed): void;
}
