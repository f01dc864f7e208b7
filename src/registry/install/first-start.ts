// The first start of a server just installed: an MCP server answers initialize and tools/list in
// a second or two; a package that is not one (cowsay, a CLI reading stdin) answers nothing and
// held the install for the whole start timeout (60 s, then 74 s in all). Past this, the install
// fails and is removed. Later starts have the full start timeout.
export const FIRST_START_MS = 6_000;
