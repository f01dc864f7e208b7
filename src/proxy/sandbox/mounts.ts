// The bubblewrap command line of one child: mounts in policy order, secrets hidden last.
import { bwrapMountArgs, type MountPlan } from '../../core/sandbox-mounts.js';
import type { NetworkMode } from './network.js';

// The mounts themselves live in core/sandbox-mounts.ts (dev processes use them too); a child's
// plan adds its network, and its sandbox ends with hub (--die-with-parent).

export { SECRET_PATHS, secretPathsOf, within } from '../../core/sandbox-mounts.js';

export interface SandboxPlan extends MountPlan {
  /** network.ts: none and all get their own network namespace (its arguments come from there). */
  readonly network: NetworkMode;
}

/** Every argument of bwrap before the command. */
export const bwrapArgs = (plan: SandboxPlan): string[] => bwrapMountArgs(plan, { dieWithParent: true });
