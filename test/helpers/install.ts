// Install-test helpers: a fake npm first on PATH (test/fixtures/install-fake-npm/npm) and /proc lookups.
import { makeHubHome } from './home.js';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fixture } from './hub.js';

export interface FakeNpm {
  /** Env for spawnHub: PATH starts with the fake npm, which logs each run to logFile. */
  readonly env: Record<string, string>;
  /** The argv of every npm run so far. */
  runs(): Promise<string[][]>;
}

export function fakeNpm(home: string, extra: Record<string, string> = {}): FakeNpm {
  const logFile = join(home, 'fake-npm.log');
  const dir = dirname(fixture('install-fake-npm/npm'));
  return {
    env: { PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}`, FAKE_NPM_LOG: logFile, ...extra },
    async runs() {
      try {
        return (await readFile(logFile, 'utf8'))
          .trim()
          .split('\n')
          .filter(Boolean)
          .map(line => JSON.parse(line) as string[]);
      } catch {
        return [];
      }
    },
  };
}

function procEntries(): string[] {
  return readdirSync('/proc').filter(entry => /^\d+$/.test(entry));
}

function directChildren(pid: number): number[] {
  return procEntries()
    .filter(entry => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[1]) === pid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

const isSharedHub = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[2] === 'daemon';
  } catch {
    return false;
  }
};

/**
 * Live direct children of a hub (from /proc/<pid>/stat field 4). The shared hub an entry started
 * stands for the entry: its children (child servers, npm) are listed in its place.
 */
export function childrenOf(pid: number): number[] {
  return directChildren(pid).flatMap(child => (isSharedHub(child) ? directChildren(child) : [child]));
}

/** Pids whose command line mentions text (e.g. a server's install folder). */
export function processesMentioning(text: string): number[] {
  return procEntries()
    .filter(entry => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text) && Number(entry) !== process.pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** A fresh HUB_HOME with the stand-in npm on PATH, and the environment to run hub's CLI there. */
export async function npmHome(): Promise<{ home: string; npm: FakeNpm; env: NodeJS.ProcessEnv }> {
  const home = await makeHubHome();
  const npm = fakeNpm(home);
  return { home, npm, env: { ...process.env, ...npm.env, HUB_HOME: home } };
}
