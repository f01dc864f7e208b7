// The built hub's CLI run as a person runs it, on a given HUB_HOME.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { SERVER_JS } from './hub.js';

const run = promisify(execFile);
const options = (home: string) => ({ env: { ...process.env, HUB_HOME: home } });

/** `hub <args>` with this whole environment: its exit code and output, whether it succeeded or not. */
export async function cliWith(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SERVER_JS, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** `hub <args>` on this HUB_HOME: its exit code and output, whether it succeeded or not. */
export const cli = (home: string, ...args: string[]) => cliWith(options(home).env, ...args);

/** `hub <args>`'s stdout; rejects when it exits with an error. */
export const cliStdout = async (home: string, ...args: string[]): Promise<string> =>
  (await run(process.execPath, [SERVER_JS, ...args], options(home))).stdout;
