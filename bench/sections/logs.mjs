import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { removeDir, tempHome } from '../lib/cleanup.mjs';
import { addProcesses, exitedRecord, paths } from '../lib/home.mjs';
import { spawnHub, textOf, toolNames } from '../lib/mcp.mjs';
import { median, round } from '../lib/stats.mjs';
import { row } from '../lib/report.mjs';

// 4. Logs: get_process_logs on a 1 GB log (last 200 lines; a cursor read of the newest 64 KB),
// interleaved with the same calls on a 128 KB log: reading from the end must not cost more.

const CURSOR_BYTES = 64 * 1024;
const LAST_LINE = 'bench: the very last line';

function line(i) {
  return `2026-11-21T23:00:${String(i % 60).padStart(2, '0')}.000Z [web] GET /api/items/${i} 200 ${i % 97}ms \x1b[32mok\x1b[0m\n`;
}

/** A log of about `bytes`, written fast: one 1 MB block of real lines repeated, then a known last line. */
function writeLog(file, bytes) {
  let block = '';
  for (let i = 0; block.length < 1024 * 1024; i++) block += line(i);
  const buffer = Buffer.from(block);
  const fd = openSync(file, 'w', 0o600);
  try {
    if (bytes < buffer.length) writeSync(fd, buffer.subarray(0, buffer.lastIndexOf(10, bytes) + 1));
    else for (let written = 0; written < bytes; written += buffer.length) writeSync(fd, buffer);
    writeSync(fd, `${LAST_LINE}\n`);
  } finally {
    closeSync(fd);
  }
  return statSync(file).size;
}

export async function logsSection({ quick, smoke, log }) {
  const bigBytes = smoke ? 8 * 2 ** 20 : quick ? 64 * 2 ** 20 : 2 ** 30;
  const runs = smoke ? 3 : quick ? 15 : 60;
  const home = await tempHome();
  try {
    const hubPaths = paths(home);
    mkdirSync(hubPaths.processLogsDir, { recursive: true, mode: 0o700 });
    const big = exitedRecord(home, 'benchbiglog', 0);
    const small = exitedRecord(home, 'benchsmalllog', 1);
    const writeStart = performance.now();
    const bigSize = writeLog(big.logFile, bigBytes);
    log(`  wrote a ${round(bigSize / 2 ** 20, 0)} MB log in ${round(performance.now() - writeStart, 0)} ms`);
    const smallSize = writeLog(small.logFile, 128 * 1024);
    await addProcesses(home, [big, small]);

    const hub = await spawnHub(home);
    try {
      if (!(await toolNames(hub.client)).includes('get_process_logs')) {
        const note = 'hub has no get_process_logs yet';
        return {
          section: { status: 'unavailable', reason: note },
          rows: [row('logs', 'get_process_logs', null, { label: '', value: null }, undefined, note)],
        };
      }
      const calls = {
        bigTail: { id: big.id, args: { id: big.id, lines: 200 } },
        smallTail: { id: small.id, args: { id: small.id, lines: 200 } },
        bigCursor: { id: big.id, args: { id: big.id, cursor: bigSize - CURSOR_BYTES, lines: 2000 } },
        smallCursor: { id: small.id, args: { id: small.id, cursor: smallSize - CURSOR_BYTES, lines: 2000 } },
      };
      const times = Object.fromEntries(Object.keys(calls).map(k => [k, []]));
      const shapes = {};
      const call = async (key, keep) => {
        const start = performance.now();
        const result = await hub.client.callTool({ name: 'get_process_logs', arguments: calls[key].args });
        const ms = performance.now() - start;
        if (result.isError) throw new Error(`get_process_logs ${JSON.stringify(calls[key].args)}: ${textOf(result)}`);
        if (keep) times[key].push(ms);
        const text = textOf(result);
        shapes[key] = {
          textBytes: Buffer.byteLength(text),
          lines: text.split('\n').filter(Boolean).length,
          endsWithLastLine: text.trimEnd().endsWith(LAST_LINE),
          nextCursor: result.structuredContent?.next_cursor ?? null,
        };
      };
      for (let i = 0; i < 5; i++) for (const key of Object.keys(calls)) await call(key, false);
      for (let i = 0; i < runs; i++) {
        const keys = Object.keys(calls);
        for (const key of i % 2 ? keys.reverse() : keys) await call(key, true);
      }
      const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, round(median(v), 2)]));
      const mbLabel = `${round(bigSize / 2 ** 20, 0)} MB`;
      const rows = [
        row(
          'logs',
          `get_process_logs last 200 lines of a ${mbLabel} log (ms, median)`,
          m.bigTail,
          { label: 'same on 128 KB log', value: m.smallTail },
          { text: '< 20 ms', below: 20 },
        ),
        row(
          'logs',
          `get_process_logs cursor read of newest 64 KB, ${mbLabel} log (ms, median)`,
          m.bigCursor,
          { label: 'same on 128 KB log', value: m.smallCursor },
          { text: '< 20 ms', below: 20 },
        ),
      ];
      for (const key of ['bigTail', 'bigCursor']) {
        if (!shapes[key].endsWithLastLine)
          rows.push(
            row(
              'logs',
              `${key}: result did not end with the log's last line`,
              null,
              { label: '', value: null },
              undefined,
              JSON.stringify(shapes[key]),
            ),
          );
      }
      return { section: { status: 'ok', bigBytes: bigSize, smallBytes: smallSize, runs, medianMs: m, shapes }, rows };
    } finally {
      await hub.close();
    }
  } finally {
    removeDir(home);
  }
}
