import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { fixture } from './hub.js';

export interface RemoteFixture {
  readonly port: number;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed on stdout after the port line. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a fixture server (test/fixtures/<name>) on 127.0.0.1 and waits for its "PORT n" line. */
export async function startRemoteFixture(name: string, args: readonly string[] = []): Promise<RemoteFixture> {
  const child = spawn(process.execPath, [fixture(name), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      text += chunk;
      const match = /PORT (\d+)\n/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', code => reject(new Error(`${name} exited (${code}) before listening`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  onTestFinished(stop);
  return { port, url: `http://127.0.0.1:${port}/mcp`, child, output: () => text, stop };
}

/** Every file under HUB_HOME/logs, as text (to check that a secret is in none of them). */
export async function allLogs(home: string): Promise<string> {
  const texts: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else texts.push(await readFile(path, 'utf8'));
    }
  };
  await walk(join(home, 'logs'));
  return texts.join('\n');
}
