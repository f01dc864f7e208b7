// `hub serve`: Streamable HTTP in the foreground until Ctrl-C (the CLI's one hub core).
import { HubError } from '../core/errors.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function portOf(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new HubError(
      'INVALID_INPUT',
      `--port must be a number from 0 to 65535 (got "${value}"); 0 picks a free port.`,
    );
  }
  return port;
}

/** hub serve [--port N] [--host H] [--rotate-token]: Streamable HTTP in the foreground until Ctrl-C. */
export const serve: CliCommand = async (argv, io) => {
  const { values } = parseCommandArgs(
    'serve',
    argv,
    { port: { type: 'string' }, host: { type: 'string' }, 'rotate-token': { type: 'boolean' } },
    { positionals: false },
  );
  // The one upward step of cli/: only this command runs a hub core (http/ sits above hub.ts).
  const { runServe, DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } = await import('../http/serve.js');
  const host = values.host ?? DEFAULT_HTTP_HOST;
  if (host.trim() === '') throw new HubError('INVALID_INPUT', '--host needs an address, e.g. --host 0.0.0.0.');
  let stop: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>(resolve => (stop = resolve));
  const onSignal = (signal: string) => stop(signal);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    const code = await runServe({
      port: portOf(values.port, DEFAULT_HTTP_PORT),
      host,
      rotateToken: values['rotate-token'] === true,
      out: io.out,
      err: io.err,
      stopped,
    });
    // Shut down: sessions closed (their open calls cancelled in the children), children stopped.
    // The process ends now, as the background shared hub does (server.ts runDaemon): what is left
    // holds nothing of the person's, e.g. the SDK client's timers to reconnect a remote child's
    // streams that its server ended on our DELETE (5 s each, ~10 s in all), so none is waited for.
    setImmediate(() => process.exit(code));
    return code;
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  }
};
