import { execFileSync } from 'node:child_process';

// Build once so every e2e test drives what ships (dist/server.js), not the sources.
// Type errors are the typecheck step's job (CI runs it first); tsc still emits, so a
// type error elsewhere does not stop unrelated tests from running.
export default function setup(): void {
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? '');
    process.stderr.write(
      `global-setup: tsc reported errors (continuing with what it emitted):\n${output.slice(0, 4000)}\n`,
    );
  }
  // The cold-start listing is part of the build (package.json "build"), as in a real install.
  execFileSync(process.execPath, ['dist/cold-start/generate-listing.js'], { stdio: 'pipe' });
}
