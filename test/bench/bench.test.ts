// Smoke test of `npm run bench -- --smoke` (--quick with the fewest rounds that still run each
// step): it runs to the end, writes the JSON with every section, and leaves no process or temp
// file behind. Times are never asserted (shared machine).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, onTestFinished, test } from 'vitest';

const RUN = fileURLToPath(new URL('../../bench/run.mjs', import.meta.url));
const SECTIONS = [
  'proxy',
  'instructions',
  'profile',
  'coldStart',
  'memory',
  'logs',
  'store',
  'listProcesses',
  'exposure',
  'sharedHub',
  'http',
  'audit',
];

interface Report {
  mode: string;
  machine: { cpus: number };
  sections: Record<string, { status: string }>;
  rows: { section: string; metric: string }[];
  markdown: string;
}

// Processes that still mention our private TMPDIR (in argv or environment) after the run.
function leftovers(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc').filter(e => /^\d+$/.test(e))) {
    try {
      const text = readFileSync(`/proc/${entry}/cmdline`, 'utf8') + readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (text.includes(marker))
        found.push(`${entry}: ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

test('bench --smoke writes every section to JSON and cleans up after itself', { timeout: 240_000 }, async () => {
  const scratch = await mkdtemp(join(tmpdir(), 'hub-bench-test-'));
  onTestFinished(() => rm(scratch, { recursive: true, force: true }));
  const temp = join(scratch, 'tmp');
  const out = join(scratch, 'out');
  await import('node:fs/promises').then(fs => fs.mkdir(temp));

  const { stdout } = await promisify(execFile)(process.execPath, [RUN, '--smoke', '--out', out], {
    env: { ...process.env, TMPDIR: temp, HUB_HOME: join(scratch, 'never-used') },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 220_000,
  });

  expect(stdout).toMatch(/section\s+figure\s+value\s+reference\s+ratio\s+target\s+result/);
  const files = await readdir(out);
  expect(files).toContain('latest.json');
  expect(files.filter(f => /^\d{4}-\d\d-\d\dT.*-smoke\.json$/.test(f))).toHaveLength(1);
  const report = JSON.parse(await readFile(join(out, 'latest.json'), 'utf8')) as Report;
  expect(report.mode).toBe('smoke');
  expect(report.machine.cpus).toBeGreaterThan(0);
  for (const name of SECTIONS) {
    expect(report.sections[name], name).toBeDefined();
    expect(['ok', 'partial', 'unavailable', 'error']).toContain(report.sections[name]?.status);
    expect(
      report.rows.some(r => r.section.replace(/[ _]/g, '').toLowerCase() === name.toLowerCase()),
      name,
    ).toBe(true);
  }
  expect(report.markdown).toContain('| section |');
  // Every temp dir (HUB_HOMEs, the big log) removed, and no process left running.
  expect(await readdir(temp)).toEqual([]);
  expect(leftovers(temp)).toEqual([]);
});
