// What hub needs from the user's npm configuration (global, user and project npmrc), read once
// and lazily with `npm config get`. npmrc files are read from disk, so this works even when the
// client strips variables such as NODE_EXTRA_CA_CERTS from hub's environment.
import { errorMessage } from '../../core/errors.js';

export interface NpmSettings {
  readonly registry: string | undefined;
  /** The npm global config file npm itself uses (passed on so --prefix can never move it). */
  readonly globalconfig: string | undefined;
  readonly cafile: string | undefined;
  /** Inline `ca` entries (PEM), from `ca=` / `ca[]=` in npmrc. */
  readonly ca: readonly string[];
  readonly httpsProxy: string | undefined;
  readonly proxy: string | undefined;
  readonly noproxy: string | undefined;
  readonly strictSsl: boolean;
  /** npm 11's per-project install-script approvals (package.json "allowScripts"). */
  readonly hasAllowScripts: boolean;
  readonly npmVersion: string | undefined;
  /** Where node-gyp finds Node's headers, when the user set it (node-headers.ts). */
  readonly nodedir?: string | undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (entry): entry is string => typeof entry === 'string' && entry.trim() !== '',
  );

/** Reads the settings hub uses from `npm config ls --json` (every resolved setting, one JSON object). */
export function parseNpmConfig(json: string): NpmSettings {
  let all: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(json) as unknown;
    if (parsed && typeof parsed === 'object') all = parsed as Record<string, unknown>;
  } catch {
    // Empty settings: Node's defaults.
  }
  return {
    registry: text(all.registry),
    globalconfig: text(all.globalconfig),
    nodedir: text(all.nodedir),
    cafile: text(all.cafile),
    ca: list(all.ca),
    httpsProxy: text(all['https-proxy']),
    proxy: text(all.proxy),
    noproxy: list(all.noproxy).join(',') || undefined,
    strictSsl: all['strict-ssl'] !== false,
    // Older npm has no such setting, so it is absent from the list.
    hasAllowScripts: 'allow-scripts-pin' in all,
    npmVersion: text(all['npm-version']),
  };
}

export type NpmSettingsReader = () => Promise<NpmSettings>;

const EMPTY: NpmSettings = parseNpmConfig('{}');

/**
 * Reads npm's settings once (the first search or install pays for one short npm run);
 * concurrent callers share the same promise. When npm cannot be run, hub falls back to Node's
 * defaults and says why in the log rather than failing the request here.
 */
export function createNpmSettingsReader(
  env: NodeJS.ProcessEnv = process.env,
  onError?: (message: string) => void,
): NpmSettingsReader {
  let pending: Promise<NpmSettings> | undefined;
  return () =>
    (pending ??= (async () => {
      try {
        // Loaded on first use: hub's start path does not need execa.
        const { execa } = await import('execa');
        // Run from HOME: an install folder's project npmrc is not the user's configuration.
        const result = await execa('npm', ['config', 'ls', '--json'], {
          env,
          extendEnv: false,
          timeout: 15_000,
          stdin: 'ignore',
          reject: false,
          cwd: env.HOME ?? '/',
        });
        if (result.failed)
          throw new Error(
            String(result.stderr)
              .split('\n')
              .find(line => /error/i.test(line)) ?? result.shortMessage,
          );
        return parseNpmConfig(String(result.stdout));
      } catch (error) {
        onError?.(
          `Could not read npm's configuration (${errorMessage(error)}); using Node's defaults for CA, proxy and registry.`,
        );
        return EMPTY;
      }
    })());
}

let shared: NpmSettingsReader | undefined;
// One reader per distinct npm environment of the sessions that installed (bounded: a few clients).
const readers = new Map<string, NpmSettingsReader>();
const MAX_READERS = 16;

/** npm's settings for the hub's own environment, or for the environment an install runs npm with. */
export function npmSettings(env?: Readonly<Record<string, string>>): Promise<NpmSettings> {
  if (env === undefined) return (shared ??= createNpmSettingsReader())();
  const key = JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let reader = readers.get(key);
  if (!reader) {
    if (readers.size >= MAX_READERS) readers.clear();
    reader = createNpmSettingsReader({ ...env });
    readers.set(key, reader);
  }
  return reader();
}
