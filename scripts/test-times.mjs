#!/usr/bin/env node
// The suite's wall time and its slowest files, from a vitest JSON report (docs/testing.md):
//   /usr/bin/time -f '%e s wall' npx vitest run --reporter=default --reporter=json --outputFile=/tmp/vitest.json
//   node scripts/test-times.mjs /tmp/vitest.json [how many, 15 by default]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, count = '15'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/test-times.mjs <vitest json report> [how many]\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const files = report.testResults.map(result => ({
  name: relative(process.cwd(), result.name),
  seconds: (result.endTime - result.startTime) / 1000,
  tests: result.assertionResults.length,
}));
const first = Math.min(...report.testResults.map(result => result.startTime));
const last = Math.max(...report.testResults.map(result => result.endTime));
const sum = files.reduce((total, entry) => total + entry.seconds, 0);
process.stdout.write(
  `${files.length} files, ${report.numTotalTests} tests: first file start to last file end ${((last - first) / 1000).toFixed(1)} s; files' own times add up to ${sum.toFixed(1)} s\n`,
);
for (const entry of files.sort((a, b) => b.seconds - a.seconds).slice(0, Number(count)))
  process.stdout.write(
    `${entry.seconds.toFixed(1).padStart(7)} s  ${String(entry.tests).padStart(3)} tests  ${entry.name}\n`,
  );
