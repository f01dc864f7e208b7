// allowScripts as one choice, read one way by the tool, the CLI and the dashboard.
import { z } from 'zod';

// registry.install allowScripts: every package's install scripts, or only the named packages'.
export const ScriptsChoiceSchema = z.union([
  z.boolean(),
  z
    .array(
      z.string().regex(/^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/, 'an npm package name such as "sqlite3"'),
    )
    .min(1),
]);
/** false (the default) means no install scripts run. */
export type ScriptsChoice = z.infer<typeof ScriptsChoiceSchema>;

/**
 * allowScripts as the tool, the CLI and the dashboard take it (a list of package names, "*" for
 * all), as one choice: one place, one answer ([] is no scripts, like leaving it out of a new
 * install, and never rebuilds an installed server).
 */
export const scriptsChoiceOf = (names: readonly string[] | undefined): ScriptsChoice | undefined =>
  names === undefined ? undefined : names.includes('*') ? true : names.length === 0 ? false : [...names];

/** The consent text for a scripts choice: which packages may run which scripts. */
export function describeScripts(choice: ScriptsChoice): string {
  if (choice === false) return 'No install scripts will run.';
  if (choice === true)
    return 'Install scripts (preinstall, install, postinstall) of this package and ALL its dependencies will run on this machine.';
  return `Install scripts (preinstall, install, postinstall: native builds, browser downloads) of these packages will run on this machine: ${choice.join(', ')}.`;
}

/** Whether npm runs any scripts at all for this choice (hub's npm step until it takes package lists). */
export const anyScripts = (choice: ScriptsChoice | undefined): boolean =>
  choice === true || (Array.isArray(choice) && choice.length > 0);
