// Echoed inputs and error details are clipped: a result must stay small whatever was passed.
const ECHO_MAX_CHARS = 200;

export const clip = (text: string, max = ECHO_MAX_CHARS): string =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
