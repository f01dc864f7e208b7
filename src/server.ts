#!/usr/bin/env node
import { startFastStart, type FastStart, type HandOff } from './cold-start/bootstrap.js';
import { loadListing } from './cold-start/listing.js';
import { HUB_VERSION } from './core/version.js';

// Only what the cold-start lane needs is imported statically: the SDK, zod and the rest of hub
// load after it has answered initialize and tools/list (see cold-start/bootstrap.ts).

function coldStartLane(): FastStart | undefined {
  const listing = loadListing(HUB_VERSION);
  if (!listing) return undefined;
  return startFastStart({ listing, env: process.env, stdin: process.stdin, write: line => process.stdout.write(line) });
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
// Until the full hub is up there is nothing to close (no child started yet): a signal, or a
// client gone (EPIPE on stdout), just exits 0.
const exitNow = () => process.exit(0);

async function runServer(fast: FastStart | undefined): Promise<void> {
  for (const signal of SIGNALS) process.on(signal, exitNow);
  process.stdout.on('error', exitNow);
  if (fast) await fast.wanted;
  const [{ openContext }, { createHub, connectLines }] = await Promise.all([
    import('./store/open-context.js'),
    import('./hub.js'),
  ]);
  const { config, log, store } = openContext();
  for (const warning of config.warnings) log.warn(warning);
  const hub = createHub({ config, log, store });

  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) return;
    closing = true;
    log.info({ reason }, 'hub shutting down');
    // Bounded: a child that will not close must not keep the client waiting.
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    hub.close().finally(() => process.exit(0));
  };
  // The SDK's stdio server transport does not notice stdin closing: hub must.
  process.stdin.on('end', () => shutdown('stdin ended'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  for (const signal of SIGNALS) {
    process.off(signal, exitNow);
    process.on(signal, () => shutdown(signal));
  }
  process.stdout.off('error', exitNow);
  process.stdout.on('error', () => shutdown('stdout closed'));
  process.on('uncaughtException', error => log.error({ err: error }, 'uncaught exception (hub keeps running)'));
  process.on('unhandledRejection', error => log.error({ err: error }, 'unhandled rejection (hub keeps running)'));

  const handOff: HandOff | undefined = fast?.handOff();
  // Counted now: the replay below drops the full hub's duplicates from the set.
  const coldStartAnswered = handOff?.answered.size ?? 0;
  await connectLines(hub, process.stdin, process.stdout, handOff);
  log.info({ home: config.home, coldStartAnswered }, 'hub started');
  if (handOff?.ended) shutdown('stdin ended');
}

// The bin: with a subcommand it is the CLI for people; with none, the stdio MCP server.
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length > 0) {
    const { runCli } = await import('./cli/index.js');
    // A command waits on child exits and grace timers that are unref'd (they must not hold a
    // stdio hub open); without a handle of its own the CLI could end mid-command, silently.
    const alive = setInterval(() => undefined, 60_000);
    try {
      process.exitCode = await runCli(argv);
    } finally {
      clearInterval(alive);
    }
    return;
  }
  await runServer(coldStartLane());
}

main().catch(error => {
  process.stderr.write(`hub: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
