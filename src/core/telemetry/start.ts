// OpenTelemetry started in the background when OTEL_* asks for it, and flushed when hub stops.
import type { Logger } from '../logger.js';
import { otelSettings } from './otel-env.js';
import { setTelemetry, telemetry } from './telemetry.js';

let started: Promise<void> | undefined;
const SHUTDOWN_WAIT_MS = 3_000;

/**
 * Starts OpenTelemetry when the standard OTEL_* variables ask for it (docs/telemetry.md): the
 * SDK is loaded with import() in the background, so a hub with nothing configured loads nothing
 * more and a configured one answers its first requests without waiting for it. Once per process.
 * Returns what the hub calls when it stops (buffered spans and metrics are sent, bounded).
 */
export function startTelemetry(env: NodeJS.ProcessEnv, log: Logger): () => Promise<void> {
  const settings = otelSettings(env);
  if (settings.kind === 'off' || started !== undefined) return () => Promise.resolve();
  if (settings.kind === 'refused') {
    log.warn(`telemetry: nothing is exported. ${settings.why}`);
    return () => Promise.resolve();
  }
  started = import('./otel-sdk.js')
    .then(async ({ createOtel }) => {
      setTelemetry(await createOtel(settings, log));
      log.info(
        `telemetry: exporting traces and metrics to ${settings.endpoint} (OTLP ${settings.traces ?? settings.metrics})`,
      );
    })
    .catch(error => log.warn({ err: error }, 'telemetry: could not load OpenTelemetry; nothing is exported'));
  return async () => {
    await started;
    const current = telemetry();
    setTelemetry(undefined);
    started = undefined;
    if (current === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      current.shutdown(),
      new Promise(resolve => {
        timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  };
}
