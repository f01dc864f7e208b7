// Kept in the tree rather than as strip-ansi: a line with no ESC/CSI byte is returned as it is
// (the common case is one character-class test), and the control-string sweep below removes what
// strip-ansi leaves behind.
// ANSI/VT escape sequences (CSI, OSC, charset and single-char escapes), as ansi-regex matches them.
const ANSI_PATTERN =
  // eslint-disable-next-line no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~]))/g;

// Control strings ansi-regex leaves behind: DCS (ESC P), SOS (ESC X), PM (ESC ^) and APC (ESC _),
// 7- and 8-bit, up to their terminator (ST) or, unterminated, the next escape. The body class
// excludes ESC and ST, so the scan stays linear whatever the line holds.
// eslint-disable-next-line no-control-regex
const CONTROL_STRING_PATTERN = /(?:\u001B[PX^_]|[\u0090\u0098\u009E\u009F])[^\u001B\u009C]*(?:\u001B\\|\u009C)?/g;

/** Text as a terminal would show it, minus colours, cursor moves and control strings (and a trailing CR). */
export function stripAnsi(line: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = /[\u001B\u0090\u0098\u009B-\u009F]/.test(line)
    ? line.replace(CONTROL_STRING_PATTERN, '').replace(ANSI_PATTERN, '')
    : line;
  return plain.endsWith('\r') ? plain.slice(0, -1) : plain;
}

/** What a terminal leaves of a line rewritten with `\r` (prompts, progress bars): its last non-empty part. */
export function afterCarriageReturn(line: string): string {
  if (!line.includes('\r')) return line;
  return line.split('\r').findLast(part => part !== '') ?? '';
}

/**
 * A line rewritten with `\r` as a terminal shows it: each part overwrites the start of what was
 * there (`50%\r100%` → `100%`, `abc\rX` → `Xbc`). Read from the last part back, so a progress bar
 * of thousands of frames costs one pass and leaves one frame, not all of them.
 */
export function overstrike(line: string): string {
  let end = line.length;
  let at = line.lastIndexOf('\r', end - 1);
  if (at < 0) return line;
  let shown = '';
  for (;;) {
    const start = at + 1;
    // Only the part longer than everything written after it shows through.
    if (end - start > shown.length) shown += line.slice(start + shown.length, end);
    if (at < 0) return shown;
    end = at;
    at = end === 0 ? -1 : line.lastIndexOf('\r', end - 1);
  }
}
