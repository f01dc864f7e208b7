import type { CliCommand } from './index.js';

export const search: CliCommand = async (_argv, io) => {
  io.err('not built yet\n');
  return 1;
};
