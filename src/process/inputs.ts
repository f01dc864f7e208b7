import { z } from 'zod';
import { linePatternProblem } from './line-match.js';
import { ID_PATTERN, NAME_PATTERN, REFERENCE_PATTERN } from './ids.js';
import { KILL_SIGNALS } from './stop.js';

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
