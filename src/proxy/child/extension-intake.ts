// A child's declared extensions as hub takes them: a wrong entry dropped with a warning.
import { extensionProblem } from '../sessions/extensions.js';
import { KNOWN_EXTENSIONS } from '../sessions/known-extensions.js';

// A child's own `capabilities.extensions` as hub takes it. The SDK Client refuses a whole
// initialize answer whose extensions entry is not an object (the child then "fails to start" with
// a zod dump), so each wrong entry is dropped before the Client reads it, with one warning naming
// it: the child still starts, and nothing it declared changes what any session is shown.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Drops the unusable entries of an initialize answer's capabilities.extensions (in place); the warnings. */
export function takeExtensionDeclarations(capabilities: Json): string[] {
  if (!Object.hasOwn(capabilities, 'extensions')) return [];
  const extensions = capabilities.extensions;
  if (!isObject(extensions)) {
    delete capabilities.extensions;
    return ['capabilities.extensions must be an object keyed by extension id; it was ignored.'];
  }
  const problems: string[] = [];
  for (const [id, value] of Object.entries(extensions)) {
    const known = KNOWN_EXTENSIONS.find(entry => entry.id === id);
    const problem = !isObject(value)
      ? `must be an object (its settings, {} for none), not ${JSON.stringify(value) ?? 'undefined'}`
      : known?.problem(value);
    if (problem === undefined) continue;
    delete extensions[id];
    problems.push(extensionProblem(id, problem));
  }
  return problems;
}

/**
 * Watches a child's messages until its initialize answer (a result with protocolVersion and
 * capabilities) and takes its extensions there; then steps out of the way.
 */
export function guardExtensionDeclarations(
  transport: { intercept?: ((message: Json) => boolean) | undefined },
  warn: (problem: string) => void,
): void {
  const previous = transport.intercept;
  transport.intercept = message => {
    const result = message.result;
    if (isObject(result) && typeof result.protocolVersion === 'string' && isObject(result.capabilities)) {
      transport.intercept = previous;
      for (const problem of takeExtensionDeclarations(result.capabilities)) warn(problem);
    }
    return previous?.(message) ?? false;
  };
}
