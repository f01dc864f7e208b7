// Which of a server's cached tools may be listed and called, and why the others are refused.
import { driftOf, type IntegrityMode } from './tool-integrity.js';

// Which of a server's cached tools are eligible to be listed and called, from its settings in the
// store (registry.configure, `hub servers configure`) and tool integrity. Applied where the routing
// table is built (routes.ts), so both lanes (full hub and cold start) and every hub sharing
// HUB_HOME agree; what is left out is remembered with its reason so a call to it is refused
// clearly. Zero-dependency: the cold-start lane uses it.

type Json = Record<string, unknown>;

/** What the filter reads of a record: store.ServerRecord with its tools, or cold-read.LeanServer. */
export interface FilterRecord {
  readonly name: string;
  readonly tools: readonly Json[];
  readonly settings?:
    { enabled?: boolean | undefined; allow?: string[] | undefined; deny?: string[] | undefined } | undefined;
  readonly fingerprints?: Readonly<Record<string, string>> | undefined;
}

/** Why a tool is not listed: a call to it is refused with this code and message (what to do included). */
export interface Refusal {
  readonly code: 'SERVER_DISABLED' | 'TOOL_REFUSED';
  readonly message: string;
}

export interface ToolVerdict {
  readonly refused?: Refusal;
  /** Listed, with this warning put before its description. */
  readonly flag?: string;
}

/** Longest pattern and name compared: names are short, and this bounds the matcher's work. */
const MAX_GLOB_CHARS = 256;

/**
 * `*` (any run, also empty) and `?` (one character); everything else is literal. Hand-written on
 * purpose: tool names are not paths (picomatch's `/`, leading-dot and brace rules would surprise),
 * and the cold-start lane must stay free of dependencies. The classic two-pointer match with one
 * backtrack point is O(pattern × name) at worst, and both are capped.
 */
export function globMatch(pattern: string, name: string): boolean {
  if (pattern.length > MAX_GLOB_CHARS || name.length > MAX_GLOB_CHARS) return pattern === name;
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      p += 1;
      n += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = n;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      n = resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

export const isDisabled = (record: Pick<FilterRecord, 'settings'>): boolean => record.settings?.enabled === false;

export const disabledMessage = (server: string): string =>
  `Server "${server}" is disabled, so it is not started and none of its tools, prompts or resources are listed. Enable it with registry.configure { server: "${server}", enabled: true } or, in a terminal, \`hub-mcp servers enable ${server}\`.`;

const settingsHint = (server: string) =>
  `registry.configure { server: "${server}", tools: { allow, deny } } or \`hub-mcp servers configure ${server} --allow … --deny …\` changes it`;

const refusal = (message: string): Refusal => ({ code: 'TOOL_REFUSED', message });

/** The first pattern of a list that matches the name. */
const matching = (patterns: readonly string[] | undefined, name: string): string | undefined =>
  patterns?.find(pattern => globMatch(pattern, name));

/**
 * Every tool of the record that is not plainly listed, with why: the server disabled, the tool
 * denied or not allowed, or its definition not the approved one (withheld, or flagged under
 * integrity "flag"). Tools not in the map are listed as they are.
 */
export function toolVerdicts(record: FilterRecord, integrity: IntegrityMode): Map<string, ToolVerdict> {
  const verdicts = new Map<string, ToolVerdict>();
  const { name: server, settings } = record;
  if (isDisabled(record)) {
    const refused: Refusal = { code: 'SERVER_DISABLED', message: disabledMessage(server) };
    for (const tool of record.tools) verdicts.set(String(tool.name), { refused });
    return verdicts;
  }
  const allow = settings?.allow && settings.allow.length > 0 ? settings.allow : undefined;
  for (const tool of record.tools) {
    const name = String(tool.name);
    const denied = matching(settings?.deny, name);
    if (denied !== undefined) {
      verdicts.set(name, {
        refused: refusal(
          `Tool "${name}" of server "${server}" is turned off by the server's settings (tools.deny "${denied}"); ${settingsHint(server)}.`,
        ),
      });
    } else if (allow && matching(allow, name) === undefined) {
      verdicts.set(name, {
        refused: refusal(
          `Tool "${name}" of server "${server}" is turned off by the server's settings (not in tools.allow ${JSON.stringify(allow)}); ${settingsHint(server)}.`,
        ),
      });
    }
  }
  if (integrity === 'off') return verdicts;
  for (const [name, drift] of driftOf(record.tools, record.fingerprints)) {
    if (verdicts.has(name)) continue;
    const what =
      drift === 'new'
        ? "is new since the server's tools were approved"
        : 'changed its description or schema since it was approved';
    const approve = `registry.list { server: "${server}" } shows what changed; a person approves it with \`hub-mcp servers approve ${server} --tool ${name}\`, or registry.configure { server: "${server}", approve: ["${name}"] } asks them`;
    verdicts.set(
      name,
      integrity === 'withhold'
        ? {
            refused: refusal(
              `Tool "${name}" of server "${server}" is withheld by hub: it ${what} (an update, or a server changing its tools behind the user's back). ${approve}.`,
            ),
          }
        : { flag: `[hub: this tool ${what}; not yet approved by the user]` },
    );
  }
  return verdicts;
}
