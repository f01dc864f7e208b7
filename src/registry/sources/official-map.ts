// From a server.json package or remote to what hub runs: arguments, environment, headers.
import { HubError } from '../../core/errors.js';
import type { Argument, KeyValueInput, OfficialPackage, OfficialRemote } from './official-schema.js';
import type { ServerKind } from './server-kinds.js';

const KINDS: Record<string, ServerKind> = { npm: 'npm', pypi: 'pypi', oci: 'oci', mcpb: 'mcpb' };

/** The kind of a package (undefined for registry types hub does not run, such as nuget). */
export const kindOf = (pkg: OfficialPackage): ServerKind | undefined => KINDS[pkg.registryType];

const label = (argument: Argument): string => argument.name ?? argument.valueHint ?? 'argument';

/** For search results: the fixed arguments, and the required ones that have no value (described). */
export function argumentsOf(list: readonly Argument[] | undefined): { args: string[]; hint: string[] } {
  const args: string[] = [];
  const hint: string[] = [];
  for (const argument of list ?? []) {
    const value = argument.value ?? (argument.isRequired ? argument.default : undefined);
    if (value !== undefined) {
      if (argument.type === 'named' && argument.name) args.push(argument.name);
      args.push(value);
    } else if (argument.isRequired) {
      hint.push(`${label(argument)}${argument.description ? ` (${argument.description})` : ''}`);
    }
  }
  return { args, hint };
}

/** For install: every argument with a value or default; a required one without either is refused, named. */
export function launchArguments(list: readonly Argument[] | undefined, where: string): string[] {
  const args: string[] = [];
  for (const argument of list ?? []) {
    const value = argument.value ?? argument.default;
    if (value === undefined) {
      if (!argument.isRequired) continue;
      throw new HubError(
        'INVALID_INPUT',
        `The server needs the ${where} argument "${label(argument)}"${argument.description ? ` (${argument.description})` : ''}, which has no default: pass the server's whole argument list in "args".`,
      );
    }
    if (argument.type === 'named' && argument.name) args.push(argument.name);
    args.push(value);
  }
  return args;
}

const checkChoice = (input: { name: string; choices?: string[] | undefined }, value: string, field: string) => {
  if (input.choices && input.choices.length > 0 && !input.choices.includes(value))
    throw new HubError(
      'INVALID_INPUT',
      `Field "${field}" ${input.name} must be one of ${input.choices.map(choice => JSON.stringify(choice)).join(', ')}.`,
    );
};

/**
 * The env a package runs with: what the caller gave, then fixed values and defaults; values
 * checked against their choices. required: the names still unset (the server waits for them).
 */
export function launchEnv(
  inputs: readonly KeyValueInput[] | undefined,
  given: Readonly<Record<string, string>>,
): { env: Record<string, string>; required: string[] } {
  const env: Record<string, string> = { ...given };
  const required: string[] = [];
  for (const input of inputs ?? []) {
    const value = env[input.name] ?? input.value ?? input.default;
    if (value === undefined) {
      if (input.isRequired) required.push(input.name);
      continue;
    }
    checkChoice(input, value, 'env');
    env[input.name] = value;
  }
  return { env, required };
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * A remote entry as registry.install { url, headers } takes it: `{var}` in the URL filled from env
 * (or the variable's default), header values as `${NAME}` references to env, so they stay secrets.
 */
export function remoteLaunch(
  remote: OfficialRemote,
  given: Readonly<Record<string, string>>,
): { url: string; headers: Record<string, string>; env: Record<string, string>; required: string[] } {
  const env: Record<string, string> = { ...given };
  const required: string[] = [];
  const url = remote.url.replace(PLACEHOLDER, (_whole, name: string) => {
    const variable = remote.variables?.[name];
    const value = env[name] ?? variable?.value ?? variable?.default;
    if (value === undefined)
      throw new HubError(
        'INVALID_INPUT',
        `The server's URL needs "${name}"${variable?.description ? ` (${variable.description})` : ''}: give it in env, e.g. env { "${name}": "…" }.`,
      );
    if (variable) checkChoice({ ...variable, name }, value, 'env');
    return encodeURIComponent(value);
  });
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? []) {
    // The header's value lives in env under the header's own name (made a valid variable name).
    const variable = header.name.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
    const fixed = header.value?.replace(PLACEHOLDER, (_whole, name: string) => `\${${name}}`);
    const value = env[variable] ?? header.default;
    if (fixed !== undefined) {
      headers[header.name] = fixed;
      continue;
    }
    if (value === undefined) {
      if (header.isRequired) required.push(variable);
      else continue;
    } else {
      checkChoice({ ...header, name: header.name }, value, 'env');
      env[variable] = value;
    }
    headers[header.name] = `\${${variable}}`;
  }
  return { url, headers, env, required };
}
