// `hub ui` (dist/server.js) as a person runs it, on a test's HUB_HOME: the one-time login URL it
// prints, and a stop that waits for whatever serves it (and the servers it started) to exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { onTestFinished } from 'vitest';
import { SERVER_JS } from './hub.js';
import { stopSharedHubIn } from './shared-hub.js';

export interface DashboardProcess {
  readonly child: ChildProcess;
  /** The base URL, http://127.0.0.1:<port>. */
  readonly base: string;
  /** The login URL `hub ui` printed (good once). */
  readonly login: string;
  stop(): Promise<void>;
}

/**
 * Runs `hub ui --no-open`. By default the shared hub serves the dashboard (`hub ui` prints the
 * login and exits) and stop() stops that hub; with foreground, this `hub ui` process serves it
 * until stop() ends it.
 */
export async function startDashboard(
  home: string,
  env: Record<string, string> = {},
  options: { foreground?: boolean } = {},
): Promise<DashboardProcess> {
  const args = [SERVER_JS, 'ui', '--no-open', ...(options.foreground ? ['--foreground'] : [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, HUB_HOME: home, DISPLAY: '', WAYLAND_DISPLAY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stopChild = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise(resolve => child.once('exit', resolve));
    child.kill('SIGTERM');
    // A dashboard that does not stop is a bug the test reports, but it leaves nothing behind.
    const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(forced);
  };
  const stop = async () => {
    await stopChild();
    if (!options.foreground) await stopSharedHubIn(home);
  };
  onTestFinished(stop);
  const login = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', code => reject(new Error(`hub-mcp ui exited (${code}) before printing its URL: ${stderr}`)));
    setTimeout(() => reject(new Error(`hub-mcp ui printed no URL in 30 s: ${stderr}`)), 30_000).unref();
  });
  return { child, base: new URL(login).origin, login, stop };
}

/** A raw HTTP request (any Host or Origin header, which fetch will not send). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, response => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** The status of a response as soon as its headers arrive (an event stream never ends). */
export function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, response => {
      resolve(response.statusCode ?? 0);
      response.destroy();
    });
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * Logs in as the page does (POST /api/login with the URL's one-time token and the page's Origin):
 * the headers that carry the session key, or undefined when refused.
 */
export async function logIn(login: string): Promise<{ authorization: string } | undefined> {
  const url = new URL(login);
  const answer = await rawRequest(`${url.origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url.origin },
    body: JSON.stringify({ token: url.searchParams.get('token') }),
  });
  if (answer.status !== 200) return undefined;
  return { authorization: `Bearer ${(JSON.parse(answer.body) as { session: string }).session}` };
}
