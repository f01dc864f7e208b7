#!/usr/bin/env node
// npm run bench [-- --quick | --smoke] [--only proxy,store] [--out dir] [--no-profile] [--no-instructions]
// Measures hub against references taken in the same run; prints a table and writes
// bench/results/latest.json plus a dated copy. See bench/README.md.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cleanupAll, installExitHandlers } from './lib/cleanup.mjs';
import { renderMarkdown, renderTable } from './lib/report.mjs';
import { HUB_JS } from './lib/mcp.mjs';

const SECTIONS = {
  proxy: () => import('./sections/proxy.mjs').then(m => m.proxySection),
  instructions: () => import('./sections/instructions.mjs').then(m => m.instructionsSection),
  profile: () => import('./sections/profile.mjs').then(m => m.profileSection),
  coldStart: () => import('./sections/cold-start.mjs').then(m => m.coldStartSection),
  memory: () => import('./sections/memory.mjs').then(m => m.memorySection),
  logs: () => import('./sections/logs.mjs').then(m => m.logsSection),
  store: () => import('./sections/store.mjs').then(m => m.storeSection),
  listProcesses: () => import('./sections/list-processes.mjs').then(m => m.listProcessesSection),
  exposure: () => import('./sections/exposure.mjs').then(m => m.exposureSection),
  interactive: () => import('./sections/interactive.mjs').then(m => m.interactiveSection),
  eras: () => import('./sections/eras.mjs').then(m => m.erasSection),
  sharedHub: () => import('./sections/shared-hub.mjs').then(m => m.sharedHubSection),
  http: () => import('./sections/http.mjs').then(m => m.httpSection),
  audit: () => import('./sections/audit.mjs').then(m => m.auditSection),
  sandbox: () => import('./sections/sandbox.mjs').then(m => m.sandboxSection),
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    // The test suite's run (test/bench/bench.test.ts): every section, with the fewest rounds that run each step.
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
    'no-instructions': { type: 'boolean', default: false },
  },
});

const log = message => process.stderr.write(`${message}\n`);

async function main() {
  if (!existsSync(HUB_JS)) throw new Error(`${HUB_JS} is missing: run npm run build (npm install does it) first`);
  installExitHandlers();
  const names = values.only ? values.only.split(',') : Object.keys(SECTIONS).filter(n => !values[`no-${n}`]);
  for (const name of names)
    if (!SECTIONS[name]) throw new Error(`unknown section ${name}; sections: ${Object.keys(SECTIONS).join(', ')}`);
  const started = Date.now();
  const report = {
    date: new Date().toISOString(),
    mode: values.smoke ? 'smoke' : values.quick ? 'quick' : 'full',
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      kernel: release(),
      loadAvgAtStart: loadavg().map(x => Number(x.toFixed(2))),
    },
    sections: {},
    rows: [],
  };
  const shared = {};
  for (const name of names) {
    const sectionStart = Date.now();
    log(`[${name}]`);
    try {
      const run = await SECTIONS[name]();
      const { section, rows } = await run({ quick: values.quick || values.smoke, smoke: values.smoke, log, shared });
      report.sections[name] = { ...section, seconds: Number(((Date.now() - sectionStart) / 1000).toFixed(1)) };
      report.rows.push(...rows);
    } catch (error) {
      log(`  ${name} failed: ${error.stack ?? error}`);
      report.sections[name] = {
        status: 'error',
        error: String(error.message ?? error),
        seconds: Number(((Date.now() - sectionStart) / 1000).toFixed(1)),
      };
      report.rows.push({
        section: name,
        metric: 'section failed',
        value: null,
        reference: { label: '', value: null },
        ratio: null,
        target: null,
        pass: null,
        margin: null,
        note: String(error.message ?? error).split('\n')[0],
      });
    }
  }
  report.seconds = Number(((Date.now() - started) / 1000).toFixed(1));
  report.machine.loadAvgAtEnd = loadavg().map(x => Number(x.toFixed(2)));
  report.markdown = renderMarkdown(report.rows);

  const outDir = values.out ?? fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const stamp = report.date.replace(/[:.]/g, '-');
  await writeFile(join(outDir, 'latest.json'), json);
  await writeFile(join(outDir, `${stamp}-${report.mode}.json`), json);

  process.stdout.write(
    `hub bench (${report.mode}) ${report.date} — ${report.machine.cpus} cores ${report.machine.cpuModel}, Node ${report.machine.node}, ${report.seconds} s\n\n`,
  );
  process.stdout.write(`${renderTable(report.rows)}\n\n`);
  const profile = report.sections.profile;
  if (profile?.summaryText) process.stdout.write(`${profile.summaryText}\n\n`);
  process.stdout.write(`results: ${join(outDir, 'latest.json')}\n`);
}

try {
  await main();
} catch (error) {
  log(`bench: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
