#!/usr/bin/env node
// Runs inside a sandbox whose network is a list of named hosts (host-proxy.ts): its network
// namespace has only a loopback, so this listens there (127.0.0.1:<port>, what HTTP_PROXY names)
// and relays each connection to hub's proxy on the unix socket bound in, then runs the server
// with the same stdio (the pipe to hub is the server's own) and ends with it.
//   net-relay <socket> <port> -- <command> [args...]
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [socket, portText, separator, command, ...args] = process.argv.slice(2);
if (socket === undefined || separator !== '--' || command === undefined) {
  process.stderr.write('net-relay: usage: net-relay <socket> <port> -- <command> [args...]\n');
  process.exit(2);
}
const relay = createServer(local => {
  const upstream = connect(socket);
  local.on('error', () => upstream.destroy());
  upstream.on('error', () => local.destroy());
  local.pipe(upstream).pipe(local);
});
relay.listen(Number(portText), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  child.on('error', error => {
    process.stderr.write(`net-relay: ${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
});
