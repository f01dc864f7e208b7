import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { CommandDeps } from '../../src/cli/command-deps.js';
import type { ClientContext } from '../../src/clients/types.js';
import { makeHubHome } from '../helpers/home.js';
import { fixture } from '../helpers/hub.js';

/** A pretend machine: a temp home, a temp project folder and a temp HUB_HOME, removed afterwards. */
export interface Machine {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly hubHome: string;
  readonly context: ClientContext;
  /** Everything the command printed. */
  readonly output: () => string;
  deps(options?: {
    confirm?: (question: string) => Promise<boolean>;
    platform?: NodeJS.Platform;
    env?: Record<string, string>;
  }): CommandDeps;
  /** Copies test/fixtures/clients/<name> to path (inside this machine), creating folders. */
  place(name: string, path: string, replace?: Record<string, string>): Promise<string>;
}

export const SERVER_JS = '/opt/hub/dist/server.js';
export const NODE = '/opt/node/bin/node';

export async function makeMachine(): Promise<Machine> {
  const root = await mkdtemp(join(tmpdir(), 'hub-clients-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(home);
  await mkdir(project);
  const hubHome = await makeHubHome();
  const context: ClientContext = { home, cwd: project, env: { HUB_HOME: hubHome }, platform: 'linux' };
  let printed = '';
  const io = { out: (text: string) => void (printed += text), err: (text: string) => void (printed += text) };
  return {
    root,
    home,
    project,
    hubHome,
    context,
    output: () => printed,
    deps: (options = {}) => ({
      io,
      context: { ...context, platform: options.platform ?? 'linux', env: { ...context.env, ...options.env } },
      serverJs: SERVER_JS,
      nodePath: NODE,
      ...(options.confirm && { confirm: options.confirm }),
    }),
    async place(name, path, replace = {}) {
      await mkdir(dirname(path), { recursive: true });
      if (Object.keys(replace).length === 0) {
        await copyFile(fixture(`clients/${name}`), path);
      } else {
        let text = await readFile(fixture(`clients/${name}`), 'utf8');
        for (const [from, to] of Object.entries(replace)) text = text.replaceAll(from, to);
        await writeFile(path, text);
      }
      return path;
    },
  };
}

export const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
