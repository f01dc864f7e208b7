// Install scripts hub skipped (it installs with --ignore-scripts), which of them the caller
// allowed, and what to tell a person when a server then fails for want of its native build.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const SkippedScriptSchema = z.object({
  name: z.string(),
  version: z.string(),
  scripts: z
    .record(z.string(), z.string())
    .describe('The lifecycle scripts npm would have run (preinstall, install, postinstall)'),
});
export type SkippedScript = z.infer<typeof SkippedScriptSchema>;

/** registry.install's allowScripts: true = every package found; a list = those names only. */
export const AllowScriptsSchema = z.union([z.boolean(), z.array(z.string().min(1))]);
export type AllowScripts = z.infer<typeof AllowScriptsSchema>;

const LIFECYCLE = ['preinstall', 'install', 'postinstall'] as const;

const PackageSchema = z.looseObject({
  name: z.string().optional(),
  version: z.string().optional(),
  scripts: z.record(z.string(), z.unknown()).optional(),
});

async function scriptsOf(folder: string): Promise<SkippedScript | undefined> {
  let pkg: z.infer<typeof PackageSchema>;
  try {
    const parsed = PackageSchema.safeParse(JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')));
    if (!parsed.success || !parsed.data.name) return undefined;
    pkg = parsed.data;
  } catch {
    return undefined;
  }
  const scripts: Record<string, string> = {};
  for (const key of LIFECYCLE) {
    const value = pkg.scripts?.[key];
    if (typeof value === 'string' && value.trim() !== '') scripts[key] = value;
  }
  // npm's default: a binding.gyp without install/preinstall script means `node-gyp rebuild`.
  if (!scripts.install && !scripts.preinstall) {
    const gyp = await stat(join(folder, 'binding.gyp')).catch(() => undefined);
    if (gyp?.isFile()) scripts.install = 'node-gyp rebuild';
  }
  return Object.keys(scripts).length > 0 ? { name: pkg.name ?? '', version: pkg.version ?? '?', scripts } : undefined;
}

/** Every package under dir/node_modules (nested and scoped too) with an install-time script. */
export async function findInstallScripts(dir: string): Promise<SkippedScript[]> {
  const found = new Map<string, SkippedScript>();
  const walk = async (modules: string, depth: number): Promise<void> => {
    if (depth > 12) return;
    const entries = await readdir(modules, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const folders = entry.name.startsWith('@')
        ? (await readdir(join(modules, entry.name), { withFileTypes: true }).catch(() => []))
            .filter(inner => inner.isDirectory())
            .map(inner => join(modules, entry.name, inner.name))
        : [join(modules, entry.name)];
      for (const folder of folders) {
        const hit = await scriptsOf(folder);
        if (hit) found.set(`${hit.name}@${hit.version}`, hit);
        await walk(join(folder, 'node_modules'), depth + 1);
      }
    }
  };
  await walk(join(dir, 'node_modules'), 0);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The names whose scripts run: all found for true, the listed ones that were found for a list. */
export function allowedNames(found: readonly SkippedScript[], allow: AllowScripts): string[] {
  const names = [...new Set(found.map(entry => entry.name))];
  if (allow === true) return names;
  if (allow === false) return [];
  return names.filter(name => allow.includes(name));
}

// Node's own words when a native addon is missing or built for another Node.
const NATIVE_FAILURE = [
  /Could not locate the bindings file/i,
  /was compiled against a different Node\.js version/i,
  /Cannot find module '[^']*\.node'/i,
  /Cannot find module .*[/\\](build|prebuilds?)[/\\]/i,
  /No native build was found for/i,
  /NODE_MODULE_VERSION/,
];

/**
 * When a server's stderr shows a native-module failure, names the package that needs its install
 * scripts and the exact call that allows them; undefined when the text is about something else.
 */
export function explainNativeFailure(
  stderrText: string,
  skipped: readonly SkippedScript[],
  install?: { readonly package: string; readonly name: string },
): string | undefined {
  if (!NATIVE_FAILURE.some(pattern => pattern.test(stderrText))) return undefined;
  // The package named in a node_modules path of the stack, else any skipped one with a native build.
  const mentioned = skipped.filter(
    entry => stderrText.includes(`node_modules/${entry.name}/`) || stderrText.includes(`node_modules\\${entry.name}\\`),
  );
  const native =
    mentioned.length > 0
      ? mentioned
      : skipped.filter(entry => /node-gyp|prebuild|node-pre-gyp/.test(Object.values(entry.scripts).join(' ')));
  const culprits = native.length > 0 ? native : skipped;
  const names = [...new Set(culprits.map(entry => entry.name))];
  const call = install
    ? `registry.install { package: "${install.package}", name: "${install.name}", allowScripts: ${JSON.stringify(names.length > 0 ? names : true)} }`
    : `registry.install { …, allowScripts: ${JSON.stringify(names.length > 0 ? names : true)} }`;
  if (names.length === 0)
    return `The server failed to load a native module (its build step never ran: hub installs without install scripts). Install it again with its scripts allowed: ${call}.`;
  const what = culprits
    .filter(entry => names.includes(entry.name))
    .map(
      entry =>
        `${entry.name}@${entry.version} (${Object.entries(entry.scripts)
          .map(([key, value]) => `${key}: ${value}`)
          .join('; ')})`,
    )
    .join(', ');
  return `The server failed to load a native module: ${names.join(', ')} must run ${names.length === 1 ? 'its' : 'their'} install scripts to build it, which hub skips unless allowed: ${what}. Install it again with ${call}.`;
}
