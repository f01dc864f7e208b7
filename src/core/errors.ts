// The whole error model: one class, a closed set of codes. Tool handlers throw these; the
// dispatcher turns them into `CODE: message` tool results (never structuredContent).
export type HubErrorCode =
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'SPAWN_FAILED'
  | 'STOP_FAILED'
  | 'LIMIT'
  | 'STORE_CORRUPT'
  | 'STORE_BUSY'
  | 'STORE_UNWRITABLE'
  | 'INSTALL_FAILED'
  | 'CONSENT_DECLINED'
  // Approval could not be asked or was not answered (cancelled, no elicitation handler): not a refusal.
  | 'CONSENT_UNAVAILABLE'
  | 'MISSING_ENV'
  | 'REGISTRY_UNAVAILABLE'
  | 'REGISTRY_TIMEOUT'
  | 'REGISTRY_BAD_RESPONSE'
  | 'CHILD_UNAVAILABLE'
  /** The server is disabled by its settings (registry.configure): not started, nothing listed. */
  | 'SERVER_DISABLED'
  /** The tool is left out by its server's settings or withheld by tool integrity. */
  | 'TOOL_REFUSED'
  | 'CHILD_TIMEOUT'
  | 'CHILD_FAILED'
  /** The child answered a call with a JSON-RPC error of its own (not a hub failure). */
  | 'CHILD_ERROR'
  /** A remote server needs the person to sign in (OAuth): the message gives the authorization URL. */
  | 'AUTH_REQUIRED'
  | 'CANCELLED'
  /** Input for a process that has ended, or whose stdin is closed. */
  | 'PROCESS_ENDED'
  /** A process did not read the input sent to it in time. */
  | 'INPUT_TIMEOUT'
  /** Dev processes on a system hub cannot manage them on yet (core/platform/platform.ts). */
  | 'UNSUPPORTED_PLATFORM'
  | 'INTERNAL';

export class HubError extends Error {
  override readonly name = 'HubError';
  constructor(
    readonly code: HubErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const isHubError = (value: unknown): value is HubError => value instanceof HubError;

/** Message of any thrown value, for logs and wrapped errors. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
