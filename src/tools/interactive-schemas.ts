// Schemas of send_input, get_process_screen and restart_process (interactive-tools.ts).
import { z } from 'zod';
import {
  ProcessReferenceSchema,
  WAIT_MAX_MS,
  WaitTimeoutOptionalSchema,
  waitForSchema,
} from '../process/tool-inputs.js';
import { ProcessStatusSchema } from '../store/schema.js';

const SizeSchema = z.strictObject({
  cols: z.number().int().min(10).max(500),
  rows: z.number().int().min(3).max(200),
});

export const SendInputSchema = z.strictObject({
  id: ProcessReferenceSchema,
  text: z
    .string()
    .max(8 * 1024 * 1024)
    .optional()
    .describe('Typed as is (add "\\n" or keys ["Enter"] to submit)'),
  keys: z
    .array(z.string().max(16))
    .max(256)
    .optional()
    .describe('After text: Enter Tab Escape Backspace Up Down Left Right Home End PageUp PageDown F1-F12 C-a..C-z'),
  resize: SizeSchema.optional().describe('tty: new size first'),
  // Described by the tool's description (the listing has a byte budget).
  wait_for: waitForSchema(WaitTimeoutOptionalSchema, false).optional(),
  idle_ms: z.number().int().min(0).max(60_000).default(300),
  timeout_ms: z.number().int().min(100).max(WAIT_MAX_MS).default(10_000),
  lines: z.number().int().min(1).max(2_000).default(200).describe('Most lines returned'),
});

export const SendOutputSchema = z.object({
  id: z.string(),
  status: ProcessStatusSchema,
  bytes_sent: z.number().int(),
  reason: z.enum(['pattern', 'port', 'idle', 'exited', 'timeout']),
  waited_ms: z.number().int(),
  output: z.string().describe('Output since the input (ANSI stripped)'),
  truncated: z.boolean(),
  next_cursor: z.number().int().describe('get_process_logs cursor for later output'),
  next: z.string(),
});

export const ScreenInputSchema = z.strictObject({ id: ProcessReferenceSchema });

export const ScreenOutputSchema = z.object({
  id: z.string(),
  status: ProcessStatusSchema,
  cols: z.number().int(),
  rows: z.number().int(),
  lines: z
    .array(z.string())
    .describe('The screen rows from the top, trailing spaces and blank rows below the text left out'),
  cursor: z.object({ row: z.number().int(), col: z.number().int() }).describe('Zero-based'),
  title: z.string(),
  alternate: z.boolean().describe('A full-screen program (vi, less, top) is showing'),
  next: z.string(),
});

export const RestartInputSchema = z.strictObject({
  id: ProcessReferenceSchema,
  grace_ms: z.number().int().min(0).max(120_000).optional().describe('SIGTERM, then SIGKILL after this (default 5000)'),
});

export const RestartOutputSchema = z.object({
  id: z.string(),
  status: ProcessStatusSchema,
  pid: z.number().int(),
  restarts: z.number().int(),
  via: z.enum(['keeper', 'respawned']).describe('keeper: its live keeper reran it; respawned: a new keeper'),
  ready: z.boolean().optional().describe('Started with wait_for: whether the new run met it (waited as the start did)'),
  reason: z.enum(['port', 'pattern', 'exited', 'timeout']).optional(),
  waited_ms: z.number().int().optional(),
  next: z.string(),
});
