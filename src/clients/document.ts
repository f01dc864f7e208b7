// A client's config file as a document: read, its servers table edited, written back minimally.
import { readFile, realpath } from 'node:fs/promises';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { HubError, errorMessage } from '../core/errors.js';
import { checkedEdit, parseJsonc, replaceAt } from './json-edit.js';
import { checkedTomlEdit } from './toml-edit.js';
import type { ClientFile } from './types.js';

type Table = Record<string, unknown>;

/** A client config file as read: its text (undefined when missing) and parsed contents. */
export interface ConfigDocument {
  readonly target: ClientFile;
  /** The file written to: the symlink target when the config is a symlink (dotfile repos). */
  readonly realFile: string;
  readonly text: string | undefined;
  readonly data: Table;
  /** Indentation found in a JSON file, reused when writing it back. */
  readonly indent: string;
}

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function detectIndent(text: string): string {
  const match = /^([ \t]+)["}]/m.exec(text);
  return match?.[1] ?? '  ';
}

function parseText(target: ClientFile, text: string): Table {
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    // JSON files may hold comments and trailing commas (VS Code's and Cursor's do): JSONC.
    data = target.format === 'toml' ? parseToml(text) : parseJsonc(text);
  } catch (error) {
    throw new HubError(
      'INVALID_INPUT',
      `${target.file} is not valid ${target.format.toUpperCase()}: ${errorMessage(error).split('\n')[0]}. Fix it or add the entry by hand; hub left it untouched.`,
    );
  }
  if (!isTable(data))
    throw new HubError(
      'INVALID_INPUT',
      `${target.file} does not hold an object at the top level; hub left it untouched.`,
    );
  return data;
}

// ENOENT is absence; every other read error (permissions, a folder in the way) propagates.
export async function readDocument(target: ClientFile): Promise<ConfigDocument> {
  let realFile = target.file;
  let text: string | undefined;
  try {
    realFile = await realpath(target.file);
    text = await readFile(realFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const data = text === undefined ? {} : parseText(target, text);
  return { target, realFile, text, data, indent: text === undefined ? '  ' : detectIndent(text) };
}

/** The servers table (mcpServers, servers, mcp_servers), or undefined when absent. Refuses a non-table. */
export function serversOf(document: ConfigDocument, data: Table = document.data): Table | undefined {
  let node: unknown = data;
  for (const key of document.target.serversPath) {
    if (!isTable(node)) return undefined;
    node = node[key];
  }
  if (node === undefined) return undefined;
  if (!isTable(node)) {
    throw new HubError(
      'INVALID_INPUT',
      `"${document.target.serversPath.join('.')}" in ${document.target.file} is not an object; hub left the file untouched.`,
    );
  }
  return node;
}

/** A deep copy of data with the servers table replaced by edit(servers) (created when missing). */
export function withServers(document: ConfigDocument, edit: (servers: Table) => void): Table {
  const copy = structuredClone(document.data);
  let node: Table = copy;
  for (const key of document.target.serversPath) {
    const next = node[key];
    if (next === undefined) node[key] = {};
    else if (!isTable(next)) serversOf(document); // throws the clear message
    node = node[key] as Table;
  }
  edit(node);
  return copy;
}

/**
 * The new text for data. Files get a minimal edit (textEdit on the old text, in the file's own
 * format) so the person's formatting and comments survive, used only when it parses back to
 * exactly data; a JSON file then gets jsonc-parser's edit of the whole servers table (comments
 * outside it kept); anything else is serialised whole.
 */
export function render(
  document: ConfigDocument,
  data: Table,
  textEdit: (text: string, unit: string) => string | undefined,
): string {
  if (document.text !== undefined && document.text.trim() !== '') {
    const edit = textEdit(document.text, document.indent);
    const edited =
      document.target.format === 'toml'
        ? checkedTomlEdit(edit, data)
        : (checkedEdit(edit, data) ??
          checkedEdit(
            replaceAt(document.text, document.target.serversPath, serversOf(document, data), document.indent),
            data,
          ));
    if (edited !== undefined) return edited;
  }
  return serialize(document, data);
}

export function serialize(document: ConfigDocument, data: Table): string {
  if (document.target.format === 'toml') return `${stringifyToml(data).trimEnd()}\n`;
  return `${JSON.stringify(data, null, document.indent)}\n`;
}
