// ANSI SGR colours of a log line as styled spans (the log keeps the escapes: raw: true). Other
// escape sequences (cursor moves, titles) are dropped. Tiny on purpose: logs need colours only.
const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[([0-9;]*)([A-Za-z])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][A-Z0-9]|\r/g;

function apply(style, codes) {
  const next = { ...style };
  const list = codes === '' ? [0] : codes.split(';').map(Number);
  for (let i = 0; i < list.length; i++) {
    const code = list[i];
    if (code === 0) {
      delete next.fg;
      delete next.bg;
      delete next.bold;
      delete next.dim;
      delete next.underline;
    } else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) delete next.bold;
    else if (code >= 30 && code <= 37) next.fg = COLOURS[code - 30];
    else if (code >= 90 && code <= 97) next.fg = `bright-${COLOURS[code - 90]}`;
    else if (code === 39) delete next.fg;
    else if (code >= 40 && code <= 47) next.bg = COLOURS[code - 40];
    else if (code === 49) delete next.bg;
    else if ((code === 38 || code === 48) && list[i + 1] === 5) i += 2;
    else if ((code === 38 || code === 48) && list[i + 1] === 2) i += 4;
  }
  return next;
}

const classOf = style =>
  [
    style.fg && `fg-${style.fg}`,
    style.bg && `bg-${style.bg}`,
    style.bold && 'bold',
    style.dim && 'dim',
    style.underline && 'underline',
  ]
    .filter(Boolean)
    .join(' ');

/** [{ text, className }] for one line. */
export function ansiSpans(line) {
  const spans = [];
  let style = {};
  let at = 0;
  for (const match of line.matchAll(ESCAPE)) {
    if (match.index > at) spans.push({ text: line.slice(at, match.index), className: classOf(style) });
    if (match[2] === 'm') style = apply(style, match[1]);
    at = match.index + match[0].length;
  }
  if (at < line.length) spans.push({ text: line.slice(at), className: classOf(style) });
  return spans;
}

/** The line without escapes (for search). */
export const plain = line => line.replace(ESCAPE, '');
