// What one audit record holds (a call, a process or server action, a decision) and its bounded line.
import type { ActorKind } from '../../core/actor.js';
import { auditArgs, auditText } from '../../core/audit-redact.js';

/** Who decided: the person through the CLI, the dashboard or the client's prompt, the agent, a setting, or hub itself. */
export type AuditBy = ActorKind | 'elicitation' | 'setting';

export type AuditOutcome = 'ok' | 'error' | 'cancelled';

interface RecordBase {
  /** Date.now() when it happened (a call: when it ended). */
  readonly t: number;
  /** The proxy's session object of the client that asked; labelled with labelSession. */
  readonly session?: object | undefined;
  readonly by?: AuditBy | undefined;
  readonly outcome?: AuditOutcome | undefined;
  /** An error's code (HubError code, CHILD_ERROR -32602 …) and its first line. */
  readonly code?: string | undefined;
  readonly error?: string | undefined;
}

/** One tool call: the agent's call of a proxied tool or of one of hub's own. */
export interface CallRecord extends RecordBase {
  readonly kind: 'call';
  readonly server: string;
  readonly tool: string;
  readonly args: unknown;
  readonly ms: number;
  /** The result (its size is worked out when the line is written), or its size when known. */
  readonly result?: unknown;
  readonly bytes?: number | undefined;
}

export interface ProcessActionRecord extends RecordBase {
  readonly kind: 'process';
  readonly action: 'start' | 'input' | 'kill' | 'restart' | 'remove';
  readonly process: string;
  readonly name?: string | undefined;
  readonly command?: string | undefined;
  readonly cwd?: string | undefined;
  /** send_input: the keys always, the text only with audit.inputText on. */
  readonly input?: { readonly keys?: readonly string[] | undefined; readonly text?: string | undefined } | undefined;
  readonly signal?: string | undefined;
}

/** An install, uninstall, upgrade or settings change of a server. */
export interface ServerActionRecord extends RecordBase {
  readonly kind: 'install' | 'uninstall' | 'upgrade' | 'configure';
  readonly server: string;
  readonly package?: string | undefined;
  readonly version?: string | undefined;
  /** configure: the settings changed (names only: values may be secrets). */
  readonly changed?: readonly string[] | undefined;
}

/** A question put to the person (install consent, a tool approval) and its answer. */
export interface DecisionRecord extends RecordBase {
  readonly kind: 'decision';
  readonly question: string;
  readonly answer: 'approved' | 'declined' | 'not asked' | 'unanswered';
  readonly server?: string | undefined;
}

export type AuditRecord = CallRecord | ProcessActionRecord | ServerActionRecord | DecisionRecord;

export type AuditKind = AuditRecord['kind'];

/** A line of the log is at most this many bytes (long values are cut before; see auditLine). */
export const AUDIT_LINE_MAX = 4096;

const labels = new WeakMap<object, () => { readonly id: string; readonly client?: string | undefined }>();

/** How a session object is named in the log: its id (pid.s<n>, unique across hubs) and client name. */
export function labelSession(
  session: object,
  label: () => { readonly id: string; readonly client?: string | undefined },
) {
  labels.set(session, label);
}

const sizeOf = (result: unknown): number | undefined => {
  if (result === undefined) return undefined;
  if (result !== null && typeof result === 'object' && 'size' in result && typeof result.size === 'number')
    return result.size;
  try {
    return JSON.stringify(result)?.length;
  } catch {
    return undefined;
  }
};

/** One record as its JSON line: secrets masked, long values cut, sizes worked out, at most AUDIT_LINE_MAX bytes. */
export function auditLine(record: AuditRecord, secrets: readonly string[], inputText: boolean): string {
  const { t, session, kind, ...rest } = record;
  const label = session === undefined ? undefined : labels.get(session)?.();
  const out: Record<string, unknown> = {
    t: new Date(t).toISOString(),
    kind,
    hub: process.pid,
    ...(label && { session: label.id, ...(label.client !== undefined && { client: label.client }) }),
  };
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    if (key === 'result') continue;
    if (key === 'args') out.args = auditArgs(value, secrets);
    else if (key === 'error' || key === 'command' || key === 'question' || key === 'package')
      out[key] = auditText(String(value), secrets);
    else if (key === 'input') out.input = inputOf(value as ProcessActionRecord['input'] & object, secrets, inputText);
    else out[key] = value;
  }
  if (kind === 'call' && out.bytes === undefined) {
    const bytes = sizeOf(record.result);
    if (bytes !== undefined) out.bytes = bytes;
  }
  let line = `${JSON.stringify(out)}\n`;
  if (Buffer.byteLength(line) > AUDIT_LINE_MAX) {
    // Only many long keys or names get here: what makes it long goes, the rest stays.
    for (const key of ['args', 'input', 'command', 'question', 'error', 'changed']) delete out[key];
    out.cut = true;
    line = `${JSON.stringify(out)}\n`;
  }
  return line;
}

function inputOf(
  input: NonNullable<ProcessActionRecord['input']>,
  secrets: readonly string[],
  inputText: boolean,
): Record<string, unknown> {
  const text = input.text ?? '';
  return {
    ...(input.keys !== undefined && input.keys.length > 0 && { keys: input.keys.slice(0, 50) }),
    length: text.length,
    ...(inputText && text.length > 0 && { text: auditText(text, secrets, 1000) }),
  };
}
