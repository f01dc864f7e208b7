// Writes docs/cli.md from the built CLI's usage table and help (npm run docs:cli, after a build),
// formatted as prettier keeps it.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { renderCliDoc } from '../dist/cli/cli-doc.js';

const file = fileURLToPath(new URL('../docs/cli.md', import.meta.url));
writeFileSync(file, await format(renderCliDoc(), { ...(await resolveConfig(file)), filepath: file }));
