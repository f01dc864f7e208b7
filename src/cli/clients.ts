// `hub config` and `hub import` on the real machine: home, working folder, a y/N prompt.
import { homedir } from 'node:os';
import { createInterface } from 'node:readline/promises';
import type { CommandDeps } from './command-deps.js';
import type { CliCommand, CliIo } from './command.js';

// The real machine: $HOME, the working directory, and a y/N prompt when stdin is a terminal.
function machineDeps(io: CliIo): CommandDeps {
  const confirm = async (question: string): Promise<boolean> => {
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await prompt.question(question)).trim());
    } finally {
      prompt.close();
    }
  };
  return {
    io,
    context: { home: process.env.HOME || homedir(), cwd: process.cwd(), env: process.env, platform: process.platform },
    ...(process.stdin.isTTY && { confirm }),
  };
}

/** hub config <client> [--scope project|user] [--write | --dry-run] [--json] */
export const config: CliCommand = async (argv, io) =>
  (await import('./config-command.js')).runConfig(argv, machineDeps(io));

/** hub import <client> [--scope project|user] [--remove [--yes]] [--json] */
export const importServers: CliCommand = async (argv, io) =>
  (await import('./import-command.js')).runImport(argv, machineDeps(io));
