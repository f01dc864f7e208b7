import type { CliCommand } from './index.js';

export const ps: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
export const logs: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
export const kill: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
