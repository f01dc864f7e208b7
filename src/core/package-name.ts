// What hub is published as, and the command its package installs. `hub` is taken on npm (an
// unrelated "service locator") and, as a command, by GitHub's hub CLI (Homebrew): a global install
// that also linked `hub` would fail with EEXIST beside it, or replace it with --force.
// test/package/package-json.test.ts checks these against package.json.

/** The npm package: `npx -y hub-mcp` runs the stdio server. */
export const PACKAGE_NAME = 'hub-mcp';

/** The command on PATH after `npm install -g hub-mcp`; the CLI's own texts say it. */
export const COMMAND_NAME = 'hub-mcp';
