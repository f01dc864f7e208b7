// The client half of the suite: hub as the client of the suite's test servers (issue 32, item 5).
// The suite starts one test server per scenario and runs `--command` with that server's URL as
// its last argument; `hub-client.mjs` (beside this file) is that command: it must install the URL
// in a fresh HUB_HOME and do what the scenario (MCP_CONFORMANCE_SCENARIO) asks of a client.
// Until it exists this mode says so and exits 2; the server half does not depend on it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runSuite, summaryOf } from './run.mjs';

export async function clientScenarios({ node, suite, root, log }) {
  const runner = join(root, 'scripts', 'conformance', 'hub-client.mjs');
  if (!existsSync(runner)) {
    log('The client scenarios need scripts/conformance/hub-client.mjs (hub as the client): not written yet.');
    return 2;
  }
  const command = `${process.execPath} ${runner}`;
  const output = await runSuite(node, suite, ['client', '--command', command, '--suite', 'all']);
  const results = summaryOf(output);
  if (results.size === 0) throw new Error(`the suite printed no summary:\n${output.slice(-3000)}`);
  let passed = 0;
  for (const [name, { passed: p, failed }] of results) {
    console.log(`${failed === 0 ? '✓' : '✗'} ${name}: ${p}/${p + failed}`);
    if (failed === 0) passed += 1;
  }
  console.log(`${passed}/${results.size} client scenarios pass with hub as the client.`);
  return passed === results.size ? 0 : 1;
}
