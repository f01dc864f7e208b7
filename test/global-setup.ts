import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Built already when every source has its output, written after it and after the build's
// settings (npm ci builds in prepare; a run after a run): tsc is 13 s of CPU on 2 cores.
function built(): boolean {
  const mtime = (file: string) => statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  const settings = Math.max(...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map(file => mtime(file) ?? 0));
  const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter(
    name => name.endsWith('.ts') && !name.endsWith('.d.ts'),
  );
  return sources.every(name => {
    const output = mtime(join('dist', name.replace(/\.ts$/, '.js')));
    return output !== undefined && output >= Math.max(settings, mtime(join('src', name)) ?? Infinity);
  });
}

// Build (when a source changed) so every e2e test drives what ships (dist/server.js), not the sources.
// Type errors are the typecheck step's job (CI runs it first); tsc still emits, so a
// type error elsewhere does not stop unrelated tests from running.
export default function setup(): () => void {
  // Tests never touch the real ~/.hub: whatever does not set its own HUB_HOME (in a test, or a
  // child inheriting the environment) gets a throwaway one, as a user could set it.
  const unsetHome = mkdtempSync(join(tmpdir(), 'hub-test-default-home-'));
  process.env.HUB_HOME = unsetHome;
  try {
    if (!built())
      execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
        stdio: 'pipe',
      });
  } catch (error) {
    const output = String((error as { stdout?: Buffer }).stdout ?? '');
    process.stderr.write(
      `global-setup: tsc reported errors (continuing with what it emitted):\n${output.slice(0, 4000)}\n`,
    );
  }
  // The cold-start listing is part of the build (package.json "build"), as in a real install.
  execFileSync(process.execPath, ['dist/cold-start/generate-listing.js'], { stdio: 'pipe' });
  return () => {
    // A hub a test started without a HUB_HOME of its own attached to this home's shared hub.
    execFileSync(process.execPath, ['dist/server.js', 'stop'], {
      stdio: 'pipe',
      env: { ...process.env, HUB_HOME: unsetHome },
    });
    rmSync(unsetHome, { recursive: true, force: true });
  };
}
