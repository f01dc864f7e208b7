#!/usr/bin/env node
// The hub-mcp bin: the CLI with a command, else the stdio MCP server behind the cold-start lane.
import { existsSync } from 'node:fs';
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
  // The lane answers until the full hub takes over: the shared hub attached (started first if
  // none runs, over a second), or the in-process hub loaded. Taken once, whoever asks first.
  const digest = await digester(fast);
  let taken: { handOff: HandOff | undefined } | undefined;
  const takeHandOff = (): HandOff | undefined => (taken ??= { handOff: digest(fast?.handOff()) }).handOff;
  const refusal = await settingsRefusal();
  if (refusal !== undefined) {
    process.stderr.write(`hub: error: ${refusal}\n`);
    const { refuseEveryRequest } = await import('./cold-start/refuse.js');
    await refuseEveryRequest(refusal, takeHandOff(), process.stdin, line => process.stdout.write(line));
    process.exit(0);
  }
  // Shared by default (docs/protocol.md "One hub per user"): this process becomes a thin pipe to the
  // user's shared hub; it falls back to the full hub in-process when that cannot be used.
  const settings = await entrySettings();
  let fallback: { reason: string; handOff: () => HandOff | undefined } = {
    reason: 'HUB_SHARED=off or sharedHub.enabled is false',
    handOff: takeHandOff,
  };
  if (settings.shared) {
    const [{ runEntry }, { sharedHubPaths }] = await Promise.all([
      import('./hub-link/entry.js'),
      import('./hub-link/paths.js'),
    ]);
    // As the in-process hub does: one bad message must not end the client's session.
    const keepGoing = (error: unknown) =>
      process.stderr.write(
        `hub: error: ${error instanceof Error ? error.message : String(error)} (hub keeps running)\n`,
      );
    process.on('uncaughtException', keepGoing);
    process.on('unhandledRejection', keepGoing);
    const end = await runEntry({
      home: settings.home,
      paths: sharedHubPaths(settings.home),
      env: process.env,
      stdin: process.stdin,
      stdout: process.stdout,
      handOff: takeHandOff,
      laneEnded: fast?.ended ?? false,
      note: message => process.stderr.write(`hub: warning: ${message}\n`),
      hungMs: hungMsFrom(process.env.HUB_HUNG_MS),
    });
    if (end.kind === 'ended') process.exit(0);
    process.off('uncaughtException', keepGoing);
    process.off('unhandledRejection', keepGoing);
    fallback = { reason: end.reason, handOff: () => end.handOff };
  }
  await runInProcess(fallback.handOff, fallback.reason, settings.shared);
}

// The lane's list goes on as a digest (core/listing-digest.ts); node:crypto is loaded once the
// lane is done with the start lists, so it stays off the cold start.
async function digester(fast: FastStart | undefined): Promise<(handOff: HandOff | undefined) => HandOff | undefined> {
  if (!fast) return handOff => handOff;
  const { listingDigest } = await import('./core/listing-digest.js');
  return handOff => (handOff?.listed === undefined ? handOff : { ...handOff, listed: listingDigest(handOff.listed) });
}

// HUB_HUNG_MS: how long a silent shared hub is given before the entry ends it (tests shorten it;
// docs/shared-hub.md). Anything but a whole number of ms from 1000 up keeps the default.
function hungMsFrom(value: string | undefined): number | undefined {
  const ms = Number(value);
  return value !== undefined && Number.isInteger(ms) && ms >= 1_000 ? ms : undefined;
}

// An invalid hub setting in this client's env (HUB_EXPOSURE, HUB_TOOL_NAMES, HUB_SHARED, ...):
// the full config (zod, the one place they are validated) says which and how, loaded only when
// the zero-dependency readers could not vouch for them.
async function settingsRefusal(): Promise<string | undefined> {
  const { leanSettingsValid } = await import('./store/cold-read.js');
  if (leanSettingsValid(process.env)) return undefined;
  const { loadConfig } = await import('./core/config/config.js');
  try {
    loadConfig(process.env);
    return undefined;
  } catch (error) {
    return `${(error as Error).message}. Fix it in the env of hub's entry in this client's MCP config, then restart the server.`;
  }
}

// What the entry needs to attach: HUB_HOME and whether to share. Read without zod where it can
// be (store/cold-read.ts): zod is ~15 MB of each entry's memory; the full config decides the rest.
async function entrySettings(): Promise<{ home: string; shared: boolean }> {
  const { leanHome, leanShared } = await import('./store/cold-read.js');
  const home = leanHome(process.env);
  const shared = home === undefined ? undefined : leanShared(process.env, home);
  if (home !== undefined && shared !== undefined) return { home, shared };
  const { loadConfig } = await import('./core/config/config.js');
  const config = loadConfig(process.env);
  return { home: config.home, shared: config.sharedHub.enabled };
}

/** The full hub in this process, as before the shared hub: its own children, closed with it. */
async function runInProcess(takeHandOff: () => HandOff | undefined, why: string, wantedShared: boolean): Promise<void> {
  const [{ openContext }, { createHub, connectLines }] = await Promise.all([
    import('./store/open-context.js'),
    import('./hub.js'),
  ]);
  // Loaded: from here the full hub answers everything.
  const handOff = takeHandOff();
  const { config, log, store } = openContext();
  for (const warning of config.warnings) log.warn(warning);
  // Said once: a person asking why five hubs run finds it in logs/hub.log.
  if (wantedShared) log.warn(`running in-process, not on the shared hub: ${why}`);
  else log.info(`running in-process: ${why}`);
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

  // Counted now: the replay below drops the full hub's duplicates from the set.
  const coldStartAnswered = handOff?.answered.size ?? 0;
  await connectLines(hub, process.stdin, process.stdout, handOff);
  log.info({ home: config.home, coldStartAnswered }, 'hub started');
  if (handOff?.ended) shutdown('stdin ended');
}

/** `hub daemon` (hidden; started by an entry): the shared hub of this HUB_HOME, until idle or stopped. */
async function runDaemon(): Promise<void> {
  const [{ openContext }, { runSharedHub }] = await Promise.all([
    import('./store/open-context.js'),
    import('./shared-hub/daemon.js'),
  ]);
  // Started by an entry for a HUB_HOME removed since (its entry gone too): nothing to serve, and
  // opening the store would create the folder again.
  const { loadConfig } = await import('./core/config/config.js');
  if (!existsSync(loadConfig(process.env).home)) return;
  const { config, log, store } = openContext({ log: { name: 'shared-hub', stderr: false } });
  for (const warning of config.warnings) log.warn(warning);
  process.on('uncaughtException', error => log.error({ err: error }, 'uncaught exception (shared hub keeps running)'));
  process.on('unhandledRejection', error =>
    log.error({ err: error }, 'unhandled rejection (shared hub keeps running)'),
  );
  // However it ends (a signal, idle, process.exit in a dependency), hub.log says so last.
  process.on('exit', code => log.info({ code }, 'shared hub exited'));
  const hub = await runSharedHub({ config, log, store });
  for (const signal of SIGNALS) process.on(signal, () => void hub.shutdown(signal));
  // A socket write to an entry that is gone must not end the hub.
  process.on('SIGPIPE', () => undefined);
  await hub.done;
  process.exit(0);
}

// The bin: with a subcommand it is the CLI for people; with none, the stdio MCP server.
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'daemon' && argv.length === 1) return runDaemon();
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
  // A person in a terminal, not a client: say what this is rather than wait silently.
  if (process.stdin.isTTY) {
    process.stderr.write((await import('./cli/intro.js')).terminalIntro());
    return;
  }
  await runServer(coldStartLane());
}

main().catch(error => {
  process.stderr.write(`hub: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
