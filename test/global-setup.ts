import { execFileSync } from 'node:child_process';

// Build once so every e2e test drives what ships (dist/server.js), not the sources.
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
