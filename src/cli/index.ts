// hub ps | logs | kill | servers | search | install | config (for people; --json for scripts).
export async function runCli(argv: readonly string[]): Promise<number> {
  process.stderr.write(`hub: unknown command "${argv[0] ?? ''}". Commands: ps, logs, kill, servers, search, install, config.\n`);
  return 2;
}
