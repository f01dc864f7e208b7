// What registry.install is asked (the request) and what it works with (the context, the target).
import type { HubConfig } from '../../core/config/config.js';
import type { Logger } from '../../core/logger.js';
import type { ServerManager } from '../../proxy/server-manager.js';
import type { Store } from '../../store/store.js';
import type { Confirm } from '../decisions/consent.js';
import type { UndoQuestion } from '../decisions/kept-decisions.js';
import type { NpmSpec } from '../npm/spec.js';
import type { ScriptsChoice } from '../decisions/scripts-choice.js';
import type { ServerKind } from '../sources/server-kinds.js';

/** What the bundled catalog (or registry metadata) knows about a package. */
export interface CatalogHints {
  readonly defaultArgs?: readonly string[] | undefined;
  readonly requiredEnv?: readonly string[] | undefined;
  /** Env var → path inside the server's data folder (where the server keeps its data). */
  readonly dataEnv?: Readonly<Record<string, string>> | undefined;
  /** Packages whose install scripts the server needs. */
  readonly scripts?: readonly string[] | undefined;
}

export interface InstallRequest {
  readonly package?: string | undefined;
  readonly command?: string | undefined;
  /** A remote server's URL (install/remote.ts). */
  readonly url?: string | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly transport?: 'streamable-http' | 'sse' | undefined;
  /** A server of the official MCP Registry by name, and which of its packages or remotes (install/official.ts). */
  readonly official?: string | undefined;
  readonly kind?: ServerKind | undefined;
  /** Set by install/official.ts: env the server cannot run without (the record keeps it). */
  readonly requiredEnv?: readonly string[] | undefined;
  readonly name?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly start?: boolean | undefined;
  /** Install scripts to allow (asked for with the install, kept in the record for upgrades). */
  readonly allowScripts?: ScriptsChoice | undefined;
  /** Replace the installed package of this server with the version asked (default latest), keeping its settings and data. */
  readonly upgrade?: boolean | undefined;
}

export interface InstallContext {
  readonly config: HubConfig;
  readonly log: Logger;
  readonly store: Store;
  readonly manager: ServerManager;
  readonly confirm: Confirm;
  /**
   * Asked before an install drops the person's decisions kept for its name (kept-decisions.ts):
   * resolves when they agree. None (the dashboard): such an install is refused.
   */
  readonly confirmUndo?: ((question: UndoQuestion) => Promise<void>) | undefined;
  readonly deriveName: (packageName: string) => string;
  readonly lookup?: ((packageName: string) => CatalogHints | undefined) | undefined;
  /** Short human progress messages ("installed x@y", "starting", "ready: N tools"); heartbeat while npm is quiet. */
  readonly progress?: ((message: string, heartbeat?: boolean) => void) | undefined;
  /** Each line npm prints while it installs. */
  readonly onNpmLine?: ((line: string) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** A remote server needs the person to sign in at this URL (the tool asks the client to open it, where it can). */
  readonly signIn?: ((server: string, url: string) => void) | undefined;
  /** The environment npm runs with (registry/npm/env.ts: the asking session's npm variables); undefined: hub's own. */
  readonly npmEnv?: Readonly<Record<string, string>> | undefined;
  /** PATH used to check that a registered command exists. */
  readonly pathEnv?: string | undefined;
}

/** What one install is about, once the request is validated. */
export interface Target {
  readonly name: string;
  readonly spec?: NpmSpec;
  readonly command?: string;
  readonly args: readonly string[];
  readonly requiredEnv: readonly string[];
  readonly dataEnv?: Readonly<Record<string, string>> | undefined;
  readonly scripts?: readonly string[] | undefined;
  readonly allowScripts?: ScriptsChoice | undefined;
}
