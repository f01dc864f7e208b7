#!/usr/bin/env node
import { loadConfig } from './config.js';
import { createHub } from './hub.js';
import { createLogger } from './logger.js';
import { HubStdioServerTransport } from './proxy/hub-stdio-transport.js';
import { openStore } from './store/store.js';

// The bin: with a subcommand it is the CLI for people; with none, the stdio MCP server.
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length > 0) {
    const { runCli } = await import('./cli/index.js');
    process.exitCode = await runCli(argv);
    return;
  }
  const config = loadConfig();
  const log = createLogger(config);
  for (const warning of config.warnings) log.warn(warning);
  const store = openStore(config.paths, log);
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
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  process.stdout.on('error', () => shutdown('stdout closed'));
  process.on('uncaughtException', error => log.error({ err: error }, 'uncaught exception (hub keeps running)'));
  process.on('unhandledRejection', error => log.error({ err: error }, 'unhandled rejection (hub keeps running)'));

  // Proxied tools/call can skip the SDK Protocol (validated once by the child lane); everything
  // else, hub's own tools included, goes through the SDK Server.
  const transport = new HubStdioServerTransport();
  const fastPath = hub.fastPath((line, kind) => transport.sendRaw(line, kind));
  if (fastPath) transport.intercept = fastPath;
  await hub.server.connect(transport);
  log.info({ home: config.home }, 'hub started');
}

main().catch(error => {
  process.stderr.write(`hub: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
