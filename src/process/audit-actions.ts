// The process manager's actions on the audit log: start, input, kill, restart, remove, and who asked.
import { currentActor } from '../core/actor.js';
import { errorMessage, isHubError } from '../core/errors.js';
import type { AuditLog } from '../store/audit/log.js';
import type { ProcessActionRecord } from '../store/audit/line.js';
import type { ProcessRecord } from '../store/schema.js';
import type { KillSpec } from './lifecycle/kill.js';
import type { SendSpec } from './terminal/send.js';
import type { StartSpec } from './lifecycle/start.js';
import type { WaitSpec } from './lifecycle/wait-for.js';

type Done = Promise<{ readonly record: ProcessRecord }>;
interface Manager {
  start(
    spec: Omit<StartSpec, 'ready'>,
    wait: WaitSpec | undefined,
    signal: AbortSignal,
    base?: {
      readonly cwd?: string | undefined;
      readonly env?: Readonly<Record<string, string | undefined>> | undefined;
    },
  ): Done;
  send(reference: string, spec: SendSpec, signal: AbortSignal): Done;
  kill(spec: KillSpec): Done;
  restart(reference: string, graceMs: number, signal?: AbortSignal): Done;
}
type Action = Omit<ProcessActionRecord, 'kind' | 't' | 'by' | 'session' | 'outcome' | 'code' | 'error'>;

const commandLine = (spec: Pick<StartSpec, 'command' | 'args'>): string =>
  spec.args === undefined ? spec.command : [spec.command, ...spec.args].join(' ');

/**
 * What the manager does to processes, on the record (docs/audit.md): start (command and folder),
 * input (keys and length; the text with audit.inputText), kill, restart, remove, each with who
 * asked (core/actor.ts: the agent's session, the CLI, the dashboard) and how it ended.
 */
export function withAudit<M extends Manager>(manager: M, audit: AuditLog): M {
  async function recorded<T>(action: Action, run: () => Promise<T>, after?: (value: T) => Partial<Action>) {
    const { by, session } = currentActor();
    const base = { kind: 'process' as const, by, session };
    try {
      const value = await run();
      audit.record({ ...base, ...action, ...after?.(value), t: Date.now(), outcome: 'ok' });
      return value;
    } catch (error) {
      const code = isHubError(error) ? error.code : 'INTERNAL';
      const failed = { outcome: 'error' as const, code, error: errorMessage(error).split('\n')[0] };
      audit.record({ ...base, ...action, t: Date.now(), ...failed });
      throw error;
    }
  }
  const named = (record: ProcessRecord) => ({ process: record.id, name: record.name, cwd: record.cwd });
  const audited: Manager = {
    start: (spec, wait, signal, base) =>
      recorded(
        { action: 'start', process: '', name: spec.name, command: commandLine(spec), cwd: spec.cwd ?? base?.cwd },
        () => manager.start(spec, wait, signal, base),
        outcome => named(outcome.record),
      ),
    send: (reference, spec, signal) =>
      recorded(
        { action: 'input', process: reference, input: { keys: spec.keys, text: spec.text } },
        () => manager.send(reference, spec, signal),
        ({ record }) => ({ process: record.id, name: record.name }),
      ),
    kill: spec =>
      recorded(
        { action: spec.remove ? 'remove' : 'kill', process: spec.reference, signal: spec.signal },
        () => manager.kill(spec),
        ({ record }) => ({ process: record.id, name: record.name }),
      ),
    restart: (reference, graceMs, signal) =>
      recorded(
        { action: 'restart', process: reference },
        () => manager.restart(reference, graceMs, signal),
        ({ record }) => ({ process: record.id, name: record.name }),
      ),
  };
  return { ...manager, ...audited } as M;
}
