// ANSI/VT escape sequences (CSI, OSC, charset and single-char escapes), as ansi-regex matches them.
const ANSI_PATTERN =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

/** Text as a terminal would show it, minus colours and cursor moves (and a trailing CR). */
export function stripAnsi(line: string): string {
  const plain = line.includes('\u001B') || line.includes('\u009B') ? line.replace(ANSI_PATTERN, '') : line;
  return plain.endsWith('\r') ? plain.slice(0, -1) : plain;
}
