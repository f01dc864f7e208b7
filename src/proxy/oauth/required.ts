// The sign-in-required error a start or call ends with, carrying the authorization URL (SDK-free).
import { HubError } from '../../core/errors.js';

/**
 * A remote server needs the person to sign in: the error a start or a call ends with, carrying the
 * authorization URL and what resolves once the sign-in is done (here, in another hub, or by
 * `hub login`). Kept free of the SDK so the slot can tell it apart without loading it.
 */
export class SignInRequired extends HubError {
  constructor(
    readonly server: string,
    readonly authorizationUrl: string,
    readonly signedIn: Promise<void>,
  ) {
    super(
      'AUTH_REQUIRED',
      `Server "${server}" needs you to sign in: open ${authorizationUrl} in a browser (it returns to hub on 127.0.0.1). ` +
        `Its tools appear once you are signed in (tools/list_changed); \`hub-mcp login ${server}\` does the same from a terminal.`,
    );
  }
}
