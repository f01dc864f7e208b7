import type { CliCommand } from './index.js';

export const config: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
export const importServers: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
