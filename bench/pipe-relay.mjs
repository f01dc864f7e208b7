#!/usr/bin/env node
// The cheapest relay a Node process can be: `node pipe-relay.mjs <command> [args…]` starts the
// command with piped stdio and copies bytes both ways with stream.pipe, nothing else. The
// sharedHub section puts it in front of an in-process hub, as the reference for the entry's hop.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', code => process.exit(code ?? 1));
process.stdin.on('end', () => child.stdin.end());
