// A free port for a process, reserved in the store so every hub sharing HUB_HOME sees it.
import { HubError } from '../../core/errors.js';
import type { HubPaths } from '../../core/paths.js';
import type { Store } from '../../store/store.js';
import type { StoreData } from '../../store/schema.js';
import { isGroupRunning } from './reconcile.js';

export const PORT_RESERVATION_MS = 30_000;
const OS_PICK_ATTEMPTS = 100;

export interface FreePort {
  readonly port: number;
  readonly host: string | undefined;
  readonly reservedUntil: string;
  /** One of the preferred ports was free and not reserved. */
  readonly preferredGranted: boolean;
}

function takenPorts(data: StoreData, paths: HubPaths, nowMs: number): Set<number> {
  const taken = new Set<number>();
  for (const [port, until] of Object.entries(data.reservations)) {
    if (until > nowMs) taken.add(Number(port));
    else delete data.reservations[port];
  }
  for (const record of Object.values(data.processes)) {
    if (record.status === 'running' && (record.startingBy !== undefined || isGroupRunning(record, paths)))
      for (const port of record.ports) taken.add(port);
  }
  return taken;
}

// A port free right now, not handed out in the last 30 s nor declared by a running process,
// reserved in the store under its lock, so every hub sharing HUB_HOME sees the reservation.
export async function allocatePort(
  store: Store,
  paths: HubPaths,
  preferred: readonly number[],
  host: string | undefined,
): Promise<FreePort> {
  // Loaded on first use (outside the lock): hub's start path does not need get-port.
  const { default: getPort } = await import('get-port');
  return store.update(async data => {
    const nowMs = Date.now();
    const exclude = takenPorts(data, paths, nowMs);
    const options = { exclude, ...(host !== undefined && { host }) };
    // get-port checks `exclude` only against the preferred ports: the port the OS picks (port 0)
    // is returned unchecked, and the OS readily hands out a port another hub just reserved.
    let port = await getPort({ ...options, port: preferred.filter(p => !exclude.has(p)) });
    for (let attempt = 0; exclude.has(port); attempt += 1) {
      if (attempt >= OS_PICK_ATTEMPTS)
        throw new HubError(
          'LIMIT',
          `The OS offered only ports already reserved by a hub (${OS_PICK_ATTEMPTS} tries); wait ${PORT_RESERVATION_MS / 1000} s for reservations to expire, or pass a port in "preferred".`,
        );
      port = await getPort(options);
    }
    const until = nowMs + PORT_RESERVATION_MS;
    data.reservations[String(port)] = until;
    return { port, host, reservedUntil: new Date(until).toISOString(), preferredGranted: preferred.includes(port) };
  });
}
