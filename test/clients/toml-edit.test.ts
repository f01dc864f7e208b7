import { parse as parseToml } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { checkedTomlEdit, deleteTomlTable, setTomlTable } from '../../src/clients/toml-edit.js';

const entry = { command: '/usr/bin/node', args: ['/hub/dist/server.js'] };
const data = (text: string) => parseToml(text) as Record<string, Record<string, unknown>>;

describe('TOML in-place edits', () => {
  test('appends a new table after the last line, with one blank line', () => {
    const text = '# top\nmodel = "x"\n\n[mcp_servers.a]\ncommand = "a" # why a\n\n\n';
    const edited = setTomlTable(text, ['mcp_servers'], 'hub', entry)!;
    expect(edited).toBe(
      '# top\nmodel = "x"\n\n[mcp_servers.a]\ncommand = "a" # why a\n\n[mcp_servers.hub]\ncommand = "/usr/bin/node"\nargs = [ "/hub/dist/server.js" ]\n',
    );
    expect(checkedTomlEdit(edited, { model: 'x', mcp_servers: { a: { command: 'a' }, hub: entry } })).toBe(edited);
  });

  test('replaces a quoted-key table and its subtables; comments before the next table stay', () => {
    const text =
      '[mcp_servers."hub"]\ncommand = "old"\n[mcp_servers.hub.env]\nA = "1"\n\n# about b\n[mcp_servers.b]\ncommand = "b"\n';
    const edited = setTomlTable(text, ['mcp_servers'], 'hub', entry)!;
    expect(data(edited).mcp_servers).toEqual({ hub: entry, b: { command: 'b' } });
    expect(edited).toContain('\n\n# about b\n[mcp_servers.b]\n');
  });

  test('a header-like line inside a multi-line string is not a table', () => {
    const text = 'note = """\n[mcp_servers.hub]\n"""\n\n[mcp_servers.hub]\ncommand = "old"\n';
    const edited = setTomlTable(text, ['mcp_servers'], 'hub', entry)!;
    expect(data(edited).note).toBe('[mcp_servers.hub]\n');
    expect(data(edited).mcp_servers).toEqual({ hub: entry });
  });

  test('deletes a table with its env subtable and no doubled blank line', () => {
    const text =
      '# keep\n[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.gone]\ncommand = "g"\n\n[mcp_servers.gone.env]\nK = "v"\n\n[mcp_servers.z]\ncommand = "z"\n';
    const edited = deleteTomlTable(text, ['mcp_servers'], 'gone')!;
    expect(edited).toBe('# keep\n[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.z]\ncommand = "z"\n');
    expect(deleteTomlTable(text, ['mcp_servers'], 'absent')).toBeUndefined();
  });

  test('a layout it cannot edit in place fails the check (the caller rewrites the file whole)', () => {
    // hub defined inline in [mcp_servers]: appending a [mcp_servers.hub] table would define it twice.
    const text = '[mcp_servers]\nhub = { command = "old" }\n';
    const edited = setTomlTable(text, ['mcp_servers'], 'hub', entry);
    expect(checkedTomlEdit(edited, { mcp_servers: { hub: entry } })).toBeUndefined();
  });
});
