// Process ids and names, and the patterns that keep them from ever reaching the file system raw.
import { randomBytes } from 'node:crypto';

// Ids are generated (8 hex); names are chosen by the caller. Both become file names and are
// matched by pattern before any lookup, so "../x" can never reach the file system.
export const ID_PATTERN = /^[0-9a-f]{8}$/;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** What an `id` input may be: an id or a name. */
export const REFERENCE_PATTERN = NAME_PATTERN;

export const newProcessId = (): string => randomBytes(4).toString('hex');
