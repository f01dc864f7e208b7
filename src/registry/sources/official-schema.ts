// server.json of the official MCP Registry: only the fields hub uses, unknown keys passed.
import { z } from 'zod';

// server.json of the official MCP Registry (API v0.1, schema 2025-09-29): only the fields hub
// uses are described; unknown keys pass so a new registry field never breaks search or install.
export const InputSchema = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  choices: z.array(z.string()).optional(),
  valueHint: z.string().optional(),
});

export const KeyValueInputSchema = InputSchema.extend({ name: z.string() });
export type KeyValueInput = z.infer<typeof KeyValueInputSchema>;

export const ArgumentSchema = InputSchema.extend({
  type: z.string(),
  name: z.string().optional(),
  isRepeated: z.boolean().optional(),
});
export type Argument = z.infer<typeof ArgumentSchema>;

export const PackageSchema = z.looseObject({
  registryType: z.string(),
  identifier: z.string(),
  version: z.string().optional(),
  registryBaseUrl: z.string().optional(),
  runtimeHint: z.string().optional(),
  fileSha256: z.string().optional(),
  transport: z.looseObject({ type: z.string() }).optional(),
  environmentVariables: z.array(KeyValueInputSchema).optional(),
  packageArguments: z.array(ArgumentSchema).optional(),
  runtimeArguments: z.array(ArgumentSchema).optional(),
});
export type OfficialPackage = z.infer<typeof PackageSchema>;

export const RemoteSchema = z.looseObject({
  type: z.string(),
  url: z.string(),
  headers: z.array(KeyValueInputSchema).optional(),
  /** `{name}` in url or a header value, filled from env (or the default). */
  variables: z.record(z.string(), InputSchema).optional(),
});
export type OfficialRemote = z.infer<typeof RemoteSchema>;

export const OfficialServerSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  version: z.string().optional(),
  packages: z.array(PackageSchema).optional(),
  remotes: z.array(RemoteSchema).optional(),
});
export type OfficialServer = z.infer<typeof OfficialServerSchema>;

export const ServerListSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullish(), count: z.number().optional() }).optional(),
});
