// The official MCP Inspector's CLI against the built hub, for the inspector tests.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { SERVER_JS } from './hub.js';
import { noteHubHome } from './shared-hub.js';

// The inspector's bin (what npx would run), or undefined when the package is not installed.
// HUB_INSPECTOR_BIN points at another copy (e.g. one installed in a scratch folder to try a version).
function inspectorBin(): string | undefined {
  if (process.env.HUB_INSPECTOR_BIN) return process.env.HUB_INSPECTOR_BIN;
  try {
    const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
    const relative = typeof bin === 'string' ? bin : (bin['mcp-inspector'] ?? Object.values(bin)[0]);
    return relative === undefined ? undefined : join(dirname(manifest), relative);
  } catch {
    return undefined;
  }
}

export const INSPECTOR_BIN = inspectorBin();

/** `inspector --cli node dist/server.js <args>` with HUB_HOME=home; its JSON answer. */
export async function inspect(home: string, args: string[]): Promise<Record<string, unknown>> {
  noteHubHome(home);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR_BIN!, '--cli', process.execPath, SERVER_JS, '-e', `HUB_HOME=${home}`, ...args],
    { env: { ...process.env, HUB_HOME: home }, timeout: 60_000 },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}
