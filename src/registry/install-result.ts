import { z } from 'zod';

// What registry.install returns (and `hub install --json` prints): never env values.
export const InstallResultSchema = z.object({
  name: z.string().describe('Server name; its tools are exposed as <name>.<tool>'),
  package: z.string().optional().describe('npm package, for npm installs'),
  version: z.string().optional().describe('Installed version'),
  mode: z.enum(['npm', 'command']),
  command: z.string().describe('How the server is launched (env values are never shown)'),
  state: z.enum(['stopped', 'starting', 'ready', 'degraded', 'failed']),
  tools: z.array(z.string()).describe('Exposed tool names'),
  missingEnv: z.array(z.string()).describe('Required env vars not given: the server was not started'),
  logFile: z.string().describe("The server's stderr log"),
  next: z.string().describe('What to call next'),
});
export type InstallResult = z.infer<typeof InstallResultSchema>;
