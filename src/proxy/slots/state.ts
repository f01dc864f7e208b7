// A server slot's state, as registry.list and the CLI show it.
export type ServerState = 'stopped' | 'starting' | 'ready' | 'degraded' | 'failed';
