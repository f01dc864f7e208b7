// `hub attach <id>`: a process's screen, then its output live, keys typed straight to it.
import { setTimeout as sleep } from 'node:timers/promises';
import { HubError } from '../core/errors.js';
import { stdinOpen, writeInput } from '../process/terminal/fifo.js';
import { logCursorNow, readLogBytes } from '../process/logs/bytes.js';
import { inputFifo } from '../process/keeper/run-files.js';
import { parseCommandArgs } from './args.js';
import type { CliCommand } from './command.js';
import { openManager, reference } from './processes.js';

const POLL_MS = 30;
const CHUNK_BYTES = 256 * 1024;
const STATUS_EVERY_MS = 500;
/** Ctrl-] (as telnet): detaches; the process runs on. */
export const DETACH_BYTE = 0x1d;

// hub attach <id>: the screen as it is now (rendered from the log), then the process's output
// live, raw, to this terminal; keys typed here go to it as they are (the terminal in raw mode).
// A tty process takes this terminal's size (as tmux does). Ctrl-] detaches.
export const attach: CliCommand = async (argv, io) => {
  const { positionals } = parseCommandArgs('attach', argv, {});
  const id = reference(positionals[0], 'attach <id>');
  const { config, manager } = openManager();
  let record = await manager.get(id);
  if (record.status !== 'running')
    throw new HubError(
      'PROCESS_ENDED',
      `Process "${record.id}" has ended (${record.status}); hub-mcp logs ${record.id} shows its output.`,
    );
  const fifo = inputFifo(config.paths, record.id);
  const stdin = process.stdin;
  const stdout = process.stdout;
  let cursor = logCursorNow(record.logFile);
  if (record.tty) {
    const { screen } = await manager.screen(record.id);
    io.out(`\x1b[H\x1b[2J${screen.lines.join('\r\n')}\x1b[${screen.cursor.row + 1};${screen.cursor.col + 1}H`);
  } else {
    const { slice } = await manager.logs({ reference: record.id, lines: 20 });
    if (slice.lines.length > 0) io.out(`${slice.lines.join('\n')}\n`);
  }
  io.err(`[hub: attached to ${record.id}; Ctrl-] detaches]\r\n`);

  const fit = async () => {
    if (!record.tty || !stdout.isTTY) return;
    const size = { cols: stdout.columns, rows: stdout.rows };
    if (size.cols === record.tty.cols && size.rows === record.tty.rows) return;
    ({ record } = await manager.send(
      record.id,
      { resize: size, idleMs: 0, timeoutMs: 1_000, lines: 1 },
      new AbortController().signal,
    ));
  };
  await fit().catch(() => undefined);
  const onResize = () => void fit().catch(() => undefined);
  stdout.on('resize', onResize);

  let detached = false;
  let writing = Promise.resolve();
  const onData = (chunk: Buffer) => {
    const stop = chunk.indexOf(DETACH_BYTE);
    let bytes = stop < 0 ? chunk : chunk.subarray(0, stop);
    // No terminal on the other side: Enter is a newline, and what is typed is echoed here.
    if (!record.tty && stdin.isTTY) {
      bytes = Buffer.from(bytes.map(byte => (byte === 0x0d ? 0x0a : byte)));
      stdout.write(Buffer.from([...bytes].flatMap(byte => (byte === 0x0a ? [0x0d, 0x0a] : [byte]))));
    }
    if (bytes.length > 0 && stdinOpen(record, fifo))
      writing = writing.then(() => writeInput(fifo, bytes, 10_000)).catch(() => undefined);
    if (stop >= 0) detached = true;
  };
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.once('end', () => (detached = true));
  stdin.resume();
  let checkedAt = Date.now();
  try {
    for (;;) {
      const { bytes, nextCursor } = readLogBytes(record.logFile, cursor, CHUNK_BYTES);
      cursor = nextCursor;
      if (bytes.length > 0) stdout.write(bytes);
      if (detached) break;
      if (bytes.length === 0) {
        // The store is read at most every STATUS_EVERY_MS, the log every POLL_MS.
        if (Date.now() - checkedAt >= STATUS_EVERY_MS && (await manager.get(record.id)).status !== 'running') {
          io.err(`\r\n[hub: process ${record.id} has ended]\r\n`);
          break;
        }
        if (Date.now() - checkedAt >= STATUS_EVERY_MS) checkedAt = Date.now();
        await sleep(POLL_MS);
      }
    }
    await writing;
  } finally {
    stdin.off('data', onData);
    stdout.off('resize', onResize);
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
  }
  if (detached) io.err(`\r\n[hub: detached; ${record.id} runs on]\r\n`);
  return 0;
};
