// The process manager's start, kill and restart as OpenTelemetry spans when telemetry is on.
import { traced } from '../core/telemetry/telemetry.js';

// What the process manager does, as OpenTelemetry spans (docs/telemetry.md) when telemetry is
// on: start, kill and restart, named by the process, never by its command line or environment
// (either can hold a secret). Off, each action is called as it is.

interface Actions {
  start(spec: { readonly name?: string | undefined }, ...rest: never[]): Promise<unknown>;
  kill(spec: { readonly reference: string; readonly signal: string; readonly remove: boolean }): Promise<unknown>;
  restart(reference: string, ...rest: never[]): Promise<unknown>;
}

export function tracedActions<M extends Actions>(manager: M): M {
  const { start, kill, restart } = manager;
  return {
    ...manager,
    start: ((spec, ...rest) =>
      traced('hub.process.start', { 'hub.process.name': spec.name ?? '' }, () =>
        start.call(manager, spec, ...rest),
      )) as M['start'],
    kill: (spec => traced('hub.process.kill', processKill(spec), () => kill.call(manager, spec))) as M['kill'],
    restart: ((reference, ...rest) =>
      traced('hub.process.restart', { 'hub.process.id': reference }, () =>
        restart.call(manager, reference, ...rest),
      )) as M['restart'],
  };
}

const processKill = (spec: Parameters<Actions['kill']>[0]) => ({
  'hub.process.id': spec.reference,
  'hub.process.signal': spec.signal,
  'hub.process.remove': String(spec.remove),
});
