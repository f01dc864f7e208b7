// Cutting text to a size, written once: results, errors and log lines must stay small whatever
// was passed, and columns must fit.

// Echoed inputs and error details are clipped: a result must stay small whatever was passed.
const ECHO_MAX_CHARS = 200;

/** At most `max` characters, then how long the whole was. */
export const clip = (text: string, max = ECHO_MAX_CHARS): string =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;

/** At most `max` characters, then an ellipsis. */
export const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max)}…`);

/** At most `width` characters in all, the ellipsis included (a column). */
export const fit = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, width - 1)}…`;
