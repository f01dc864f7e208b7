// What a child writes for a person, cleaned so nothing can hide or move hub's label.
import { stripAnsi } from '../../process/logs/ansi.js';

// What a child sends to be read by a person (an elicitation's message, its fields' titles and
// descriptions) is cleaned before hub's label goes in front of it: no escape sequence, control
// character or bidi override can move, hide or reorder the label, and no leading blank lines can
// push it out of sight above a dialog's first line.

// C0 controls but tab and newline, DEL, C1 controls (what stripAnsi leaves: lone ESC, BEL, BS...).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Bidi embeddings, overrides and isolates, and the marks that flip the direction of what follows.
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Multi-line text for a person: at most one blank line in a row, none at either end. */
export function forPerson(text: string): string {
  const lines = text
    .replace(/\r\n?|[\u2028\u2029\u0085]/g, '\n')
    .split('\n')
    .map(line => stripAnsi(line).replace(CONTROLS, '').replace(BIDI, '').trimEnd());
  const kept: string[] = [];
  for (const line of lines) {
    const blank = line.trim() === '';
    if (blank && (kept.length === 0 || kept.at(-1) === '')) continue;
    kept.push(blank ? '' : line);
  }
  while (kept.at(-1) === '') kept.pop();
  return kept.join('\n').trimStart();
}

/** One line for a person (a title, a choice): newlines become spaces. */
export const oneLine = (text: string): string => forPerson(text).replace(/\s*\n\s*/g, ' ');
