// An MCP bundle (.mcpb) from the official registry: downloaded, its sha256 checked, unpacked into
// HUB_HOME/servers/<name> (a zip, read with jszip), and run as its manifest's mcp_config says.
// Any failure removes the folder again: nothing half-installed stays behind.
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import JSZip from 'jszip';
import { z } from 'zod';
import { HubError, errorMessage } from '../../core/errors.js';
import type { InstallContext, InstallRequest } from './context.js';
import type { InstallResult } from './result.js';
import type { OfficialPackage } from '../sources/official-schema.js';
import { findProgram } from '../sources/server-kinds.js';

const MAX_BUNDLE_BYTES = 200 * 1024 * 1024;
const MAX_FILES = 20_000;

const ManifestSchema = z.looseObject({
  server: z.looseObject({
    type: z.string(),
    entry_point: z.string().optional(),
    mcp_config: z.looseObject({
      command: z.string(),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
    }),
  }),
  user_config: z
    .record(z.string(), z.looseObject({ default: z.unknown().optional(), required: z.boolean().optional() }))
    .optional(),
});

async function download(url: string, signal: AbortSignal | undefined): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { ...(signal && { signal }) });
  } catch (error) {
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${url} could not be downloaded (${errorMessage(error)}); nothing was installed.`,
    );
  }
  if (!response.ok)
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${url} could not be downloaded (HTTP ${response.status}); nothing was installed.`,
    );
  const size = Number(response.headers.get('content-length') ?? 0);
  if (size > MAX_BUNDLE_BYTES)
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${url} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB; nothing was installed.`,
    );
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_BUNDLE_BYTES)
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${url} is larger than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB; nothing was installed.`,
    );
  return bytes;
}

// Every entry lands inside the folder: absolute paths and ".." are refused (zip slip).
async function unpack(bytes: Buffer, folder: string): Promise<void> {
  const zip = await JSZip.loadAsync(bytes);
  const entries = Object.values(zip.files);
  if (entries.length > MAX_FILES) throw new Error(`it has more than ${MAX_FILES} files`);
  for (const entry of entries) {
    const relative = normalize(entry.name);
    if (relative.startsWith('..') || relative.startsWith(sep) || relative.includes(`..${sep}`))
      throw new Error(`its entry "${entry.name.slice(0, 200)}" points outside the bundle`);
    const target = join(folder, relative);
    if (entry.dir) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await entry.async('nodebuffer'));
    const mode = typeof entry.unixPermissions === 'number' ? entry.unixPermissions & 0o777 : 0;
    if (mode & 0o100) await chmod(target, 0o755);
  }
}

/** `${__dirname}`, `${user_config.x}`, `${HOME}` and `${/}` in the manifest's command, args and env. */
function substitute(
  text: string,
  folder: string,
  env: Readonly<Record<string, string>>,
  defaults: Record<string, unknown>,
) {
  return text.replace(/\$\{([^}]+)\}/g, (whole, key: string) => {
    if (key === '__dirname') return folder;
    if (key === '/' || key === 'pathSeparator') return sep;
    if (key === 'HOME') return process.env.HOME ?? '';
    const user = /^user_config\.(.+)$/.exec(key)?.[1];
    if (user === undefined) return whole;
    const value = env[user] ?? defaults[user];
    if (value === undefined)
      throw new HubError(
        'INVALID_INPUT',
        `The bundle needs its setting "${user}": give it in env, e.g. env { "${user}": "…" }.`,
      );
    return String(value);
  });
}

export async function installMcpb(
  plan: {
    pkg: OfficialPackage;
    name: string;
    env: Record<string, string>;
    required: string[];
    args: readonly string[] | undefined;
    start: boolean | undefined;
  },
  context: InstallContext,
  install: (request: InstallRequest, context: InstallContext) => Promise<InstallResult>,
): Promise<InstallResult> {
  const { pkg, name } = plan;
  const expected = pkg.fileSha256?.toLowerCase();
  if (expected === undefined)
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${pkg.identifier} has no fileSha256 in the registry, so it cannot be checked; nothing was installed.`,
    );
  if ((await context.store.read()).servers[name])
    throw new HubError(
      'ALREADY_EXISTS',
      `A server named "${name}" is already installed; pick another name with "name", or remove it first with registry.uninstall { name: "${name}" }.`,
    );
  const bytes = await download(pkg.identifier, context.signal);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected)
    throw new HubError(
      'INSTALL_FAILED',
      `The bundle ${pkg.identifier} does not match the registry's sha256 (expected ${expected}, got ${actual}); nothing was installed.`,
    );
  const folder = context.config.paths.serverDir(name);
  const temp = `${folder}.unpack-${randomBytes(4).toString('hex')}`;
  try {
    await unpack(bytes, temp).catch((error: unknown) => {
      throw new HubError(
        'INSTALL_FAILED',
        `The bundle ${pkg.identifier} could not be unpacked: ${errorMessage(error)}; nothing was installed.`,
      );
    });
    const manifest = ManifestSchema.safeParse(
      JSON.parse(await readFile(join(temp, 'manifest.json'), 'utf8').catch(() => '{}')),
    );
    if (!manifest.success)
      throw new HubError(
        'INSTALL_FAILED',
        `The bundle ${pkg.identifier} has no usable manifest.json (server.mcp_config); nothing was installed.`,
      );
    await rm(folder, { recursive: true, force: true });
    await rename(temp, folder);
    const { server, user_config: userConfig } = manifest.data;
    const defaults = Object.fromEntries(Object.entries(userConfig ?? {}).map(([key, value]) => [key, value.default]));
    const fill = (text: string) => substitute(text, folder, plan.env, defaults);
    const given = server.mcp_config.command;
    const command = given === 'node' ? process.execPath : fill(given);
    if (!command.includes('/') && !findProgram(command, context.pathEnv))
      throw new HubError(
        'INSTALL_FAILED',
        `The bundle ${pkg.identifier} runs with "${command}" (a ${server.type} server), which is not on PATH; install it, then call registry.install again. Nothing was installed.`,
      );
    const env = { ...plan.env };
    for (const [key, value] of Object.entries(server.mcp_config.env ?? {})) env[key] = fill(value);
    return await install(
      {
        name,
        command,
        args: plan.args ? [...plan.args] : (server.mcp_config.args ?? []).map(fill),
        env,
        kind: 'mcpb',
        requiredEnv: plan.required,
        start: plan.start,
      },
      context,
    );
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    // A record the install kept (a server that started, then failed later) keeps its folder.
    if (!(await context.store.read()).servers[name]) await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
