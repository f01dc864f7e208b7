#!/usr/bin/env node
// The floor of a stdio proxy, as a second reference next to the naive SDK proxy: no SDK on the
// path at all. Lines are JSON.parse'd and JSON.stringify'd once per hop; tools/call names lose
// the "everything." prefix on the way in and tools/list names gain it on the way out. Ids pass
// through unchanged (one client). What it costs is the pipes, the wake-ups and JSON: no
// validation, no cancellation or progress bookkeeping, so hub cannot be this cheap, only close.
import { spawn } from 'node:child_process';

const PREFIX = 'everything.';
// --raw: the absolute floor. Responses are piped through untouched (no parse), requests have the
// prefix cut by string replacement; tools/list names come back unprefixed (the bench never lists).
const raw = process.argv[2] === '--raw';
const [childScript, ...childArgs] = process.argv.slice(raw ? 3 : 2);
const child = spawn(process.execPath, [childScript, ...childArgs], { stdio: ['pipe', 'pipe', 'ignore'] });
const listIds = new Set();

function lines(stream, onLine) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', chunk => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const line of parts) if (line.trim()) onLine(line);
  });
}

if (raw) {
  child.stdout.pipe(process.stdout);
  lines(process.stdin, line => child.stdin.write(`${line.replace(`"name":"${PREFIX}`, '"name":"')}\n`));
}

if (!raw)
  lines(process.stdin, line => {
    const message = JSON.parse(line);
    if (message.method === 'tools/call' && message.params?.name?.startsWith(PREFIX))
      message.params.name = message.params.name.slice(PREFIX.length);
    if (message.method === 'tools/list') listIds.add(message.id);
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });

if (!raw)
  lines(child.stdout, line => {
    const message = JSON.parse(line);
    if (listIds.delete(message.id) && message.result?.tools)
      for (const tool of message.result.tools) tool.name = PREFIX + tool.name;
    process.stdout.write(`${JSON.stringify(message)}\n`);
  });

const shutdown = () => {
  child.kill();
  process.exit(0);
};
process.stdin.on('end', shutdown);
process.on('SIGTERM', shutdown);
child.on('exit', () => process.exit(0));
