// The zod atoms of the process tools' arguments: ports, patterns, names, signals, wait_for.
import { z } from 'zod';
import { linePatternProblem } from './logs/line-match.js';
import { ID_PATTERN, NAME_PATTERN, REFERENCE_PATTERN } from './keeper/ids.js';
import { KILL_SIGNALS } from './lifecycle/stop.js';

// The zod atoms of the process tools' inputs (validated by the tool table, before run()).

export const PortNumberSchema = z.number().int().min(1).max(65_535);

/** A regular expression given as text: a bad one is an input error naming its field. */
export const RegexTextSchema = z
  .string()
  .min(1)
  .max(1_000)
  .superRefine((value, context) => {
    // Checked the way it will run: RE2 syntax (line-match.ts), so no pattern can freeze hub.
    const problem = linePatternProblem(value);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
  });

export const ProcessReferenceSchema = z
  .string()
  .regex(
    REFERENCE_PATTERN,
    'must be a process id or name from start_process/list_processes (letters, digits, ".", "_", "-"; no "/")',
  )
  .describe('Process id or name');

export const ProcessNameSchema = z
  .string()
  .regex(NAME_PATTERN, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .refine(value => !ID_PATTERN.test(value), 'must not look like a process id (8 hex characters)');

export const EnvKeySchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'env keys must be names like PORT or NODE_ENV');

export const KillSignalNameSchema = z.enum(KILL_SIGNALS);

export const WAIT_DEFAULT_MS = 15_000;
export const WAIT_MAX_MS = 120_000;

/**
 * wait_for, one shape in start_process and send_input: { port?, pattern?, timeout_ms? }, listed
 * as that object (plain JSON Schema, no anyOf, for clients that drop unions), and also taken as a
 * pattern given alone as a string, since an agent that learned one tool's form sends it to the other.
 * timeout_ms: start_process's has its default; send_input's falls back to its own timeout_ms.
 * described: false lists the fields bare (send_input's, to keep hub's listing within its budget).
 */
export function waitForSchema<Timeout extends z.ZodType<number | undefined>>(timeout: Timeout, described = true) {
  const port = PortNumberSchema.optional();
  const pattern = RegexTextSchema.optional();
  return z.preprocess(
    value => (typeof value === 'string' ? { pattern: value } : value),
    z.strictObject({
      port: described ? port.describe('Ready when it accepts TCP') : port,
      pattern: described ? pattern.describe('Ready when a log line matches (RE2)') : pattern,
      timeout_ms: timeout,
    }),
  );
}

const waitTimeout = z.number().int().min(100).max(WAIT_MAX_MS);
export const WaitTimeoutDefaultSchema = waitTimeout
  .default(WAIT_DEFAULT_MS)
  .describe('Then stop waiting; it keeps running');
// send_input's: its own timeout_ms (listed beside it) when not given here.
export const WaitTimeoutOptionalSchema = waitTimeout.optional();
