// Named keys as a terminal sends them, and the signals control keys stand for without one.
import { HubError } from '../../core/errors.js';

// Named keys as a terminal (xterm, normal cursor mode) sends them. Without a terminal, Enter is a
// newline (programs reading a pipe read lines), and C-c / C-\ / C-z become signals to the
// process group, since no line discipline turns them into one (signalFor).
const FIXED: Record<string, string> = {
  Enter: '\r',
  Tab: '\t',
  Escape: '\x1b',
  Backspace: '\x7f',
  Space: ' ',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  Home: '\x1b[H',
  End: '\x1b[F',
  PageUp: '\x1b[5~',
  PageDown: '\x1b[6~',
  Insert: '\x1b[2~',
  Delete: '\x1b[3~',
  F1: '\x1bOP',
  F2: '\x1bOQ',
  F3: '\x1bOR',
  F4: '\x1bOS',
  F5: '\x1b[15~',
  F6: '\x1b[17~',
  F7: '\x1b[18~',
  F8: '\x1b[19~',
  F9: '\x1b[20~',
  F10: '\x1b[21~',
  F11: '\x1b[23~',
  F12: '\x1b[24~',
};

export const KEY_NAMES_HELP =
  'Enter, Tab, Escape, Backspace, Space, Up/Down/Left/Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, C-a..C-z, C-\\';

const SIGNAL_KEYS: Record<string, NodeJS.Signals> = { 'C-c': 'SIGINT', 'C-\\': 'SIGQUIT', 'C-z': 'SIGTSTP' };

/** The bytes of a named key; throws naming keys[index] when the name is unknown. */
export function keyBytes(name: string, index: number, tty: boolean): string {
  if (name === 'Enter' && !tty) return '\n';
  const fixed = FIXED[name];
  if (fixed !== undefined) return fixed;
  const control = /^C-([a-zA-Z\\])$/.exec(name);
  if (control?.[1] !== undefined) {
    const letter = control[1].toLowerCase();
    return String.fromCharCode(letter === '\\' ? 0x1c : letter.charCodeAt(0) - 96);
  }
  throw new HubError(
    'INVALID_INPUT',
    `Field "keys[${index}]": unknown key "${name.slice(0, 40)}". Known keys: ${KEY_NAMES_HELP}; send other text in "text".`,
  );
}

/** The signal a control key stands for when the process has no terminal. */
export const signalFor = (name: string): NodeJS.Signals | undefined => SIGNAL_KEYS[name];
