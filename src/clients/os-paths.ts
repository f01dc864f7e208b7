// Per-user settings folders on each system (Application Support, %APPDATA%, XDG).
import { join } from 'node:path';
import type { ClientContext } from './types.js';

/** %APPDATA% on Windows (roaming profile), with the usual default when it is unset. */
export const appDataDir = (context: ClientContext): string =>
  context.env.APPDATA ?? join(context.home, 'AppData', 'Roaming');

/** Per-user application settings folder: macOS Application Support, %APPDATA%, else XDG config. */
export function userConfigDir(context: ClientContext): string {
  if (context.platform === 'darwin') return join(context.home, 'Library', 'Application Support');
  if (context.platform === 'win32') return appDataDir(context);
  return context.env.XDG_CONFIG_HOME ?? join(context.home, '.config');
}

export { shellQuote } from '../core/shell-quote.js';
