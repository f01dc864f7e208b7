// The client half of the suite: hub as the client of the suite's test servers (issue 32, item 5).
// The suite starts its own servers per scenario on 127.0.0.1 and runs `--command` with the
// server's URL as its last argument; `hub-client.mjs` (beside this file) is that command: it
// installs the URL in a fresh HUB_HOME, follows sign-in links as a browser would, lists and calls.
// One scenario at a time (two cores are shared), each bounded.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HUB_CLIENT = fileURLToPath(new URL('hub-client.mjs', import.meta.url));
const SCENARIO_TIMEOUT_MS = 60_000;

/** The suite's client scenario names (`conformance list`, the client section). */
function listClientScenarios(node, suite) {
  const listed = spawnSync(node, [suite, 'list'], { encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`conformance list failed: ${listed.stderr}`);
  const section = listed.stdout.split(/Client scenarios[^\n]*\n/)[1] ?? '';
  return [...section.matchAll(/^\s+- (\S+)/gm)].map(match => match[1]);
}

function runOne(node, suite, root, scenario) {
  return new Promise(resolve => {
    const command = `${process.execPath} ${HUB_CLIENT}`;
    const args = [suite, 'client', '--command', command, '--scenario', scenario, '--timeout', '45000'];
    const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Every client scenario (or those named), one verdict line each and a total; 0 when all pass. */
export async function clientScenarios({ node, suite, root, log, scenarios = [], verbose = false }) {
  const names = scenarios.length > 0 ? scenarios : listClientScenarios(node, suite);
  let passed = 0;
  for (const scenario of names) {
    const result = await runOne(node, suite, root, scenario);
    console.log(`${result.passed ? '✓' : '✗'} ${scenario}`);
    if (!result.passed && verbose) console.log(result.output.slice(-4000));
    if (result.passed) passed += 1;
  }
  log(`${passed}/${names.length} client scenarios pass with hub as the client.`);
  return passed === names.length ? 0 : 1;
}
