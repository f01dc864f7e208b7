import type { CliCommand } from './index.js';

export const servers: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
export const install: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
