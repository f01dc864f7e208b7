// The schema of one bundled catalog entry: what search shows and what install needs.
import { z } from 'zod';
import { SERVER_NAME_PATTERN } from './server-name.js';

// One bundled entry: what search shows and what install needs (default args, env to ask for).
export const CatalogEntrySchema = z.strictObject({
  package: z.string().regex(/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/),
  name: z.string().regex(SERVER_NAME_PATTERN).optional(),
  title: z.string().min(1),
  description: z.string().min(1),
  // Default args; "{data}" stands for the server's data folder (HUB_HOME/data/<name>), never a relative path.
  args: z.array(z.string()).default([]),
  argsHint: z.string().optional(),
  // Env vars that say where the server keeps its data, set to a path inside its data folder (e.g. MEMORY_FILE_PATH: "memory.jsonl").
  dataEnv: z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.string().min(1)).default({}),
  // Packages whose install scripts the server needs (native builds, browser downloads): pass them as registry.install allowScripts.
  scripts: z.array(z.string()).default([]),
  env: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
        description: z.string(),
        required: z.boolean(),
        secret: z.boolean().optional(),
      }),
    )
    .default([]),
  keywords: z.array(z.string()).default([]),
});
export type CatalogEntryInput = z.input<typeof CatalogEntrySchema>;
