// Every extension hub carries between clients and children, one entry each.
import { appsExtension } from './apps-extension.js';
import type { ExtensionEntry } from './extensions.js';

/** Every extension hub carries between clients and children (add an entry per extension). */
export const KNOWN_EXTENSIONS: readonly ExtensionEntry[] = [appsExtension];
