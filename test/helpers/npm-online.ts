// Tests that install published packages from the public npm registry are opted into with
// HUB_TEST_NPM=1 (.ci/run sets it; docs/testing.md): the rest of the suite needs no network.
// HUB_OFFLINE_TESTS=1 still skips them, whatever HUB_TEST_NPM says.
export const NPM_ONLINE = process.env.HUB_TEST_NPM === '1' && process.env.HUB_OFFLINE_TESTS !== '1';

/** Added to the name of a test that is skipped for want of HUB_TEST_NPM=1, so the report says why. */
export const npmSkipped = (skipped = !NPM_ONLINE): string =>
  skipped ? ' (skipped: reaches the public npm registry; HUB_TEST_NPM=1 runs it)' : '';
