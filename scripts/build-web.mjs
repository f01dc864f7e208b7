// Bundles the dashboard (web/) into dist/web with esbuild: no CDN, works offline. Prints the size.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const out = 'dist/web';
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['web/app.js'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  outfile: `${out}/app.js`,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync('web/index.html', `${out}/index.html`);
copyFileSync('web/app.css', `${out}/app.css`);
const sizes = ['app.js', 'app.css', 'index.html'].map(file => {
  const bytes = statSync(`${out}/${file}`).size;
  const gzip = gzipSync(readFileSync(`${out}/${file}`)).length;
  return `${file} ${(bytes / 1024).toFixed(1)} KiB (${(gzip / 1024).toFixed(1)} KiB gzipped)`;
});
process.stderr.write(`dashboard bundle: ${sizes.join(', ')}\n`);
