// What says a value is a secret: its name (a CLI flag --api-key, an argument apiKey, a variable
// GITHUB_TOKEN) or its shape (a URL's password, a bearer token). One place for the masking of
// client configs (clients/redact.ts) and of tool-call arguments in the audit log (core/audit-redact.ts).
export const SECRET_WORDS = 'key|token|secret|password|passwd|auth|credential';

const SECRET_INLINE = new RegExp(`^(--?[\\w-]*(?:${SECRET_WORDS})[\\w-]*=).+$`, 'i');

/** A flag with its secret value inline (--token=abc), a URL's password, a bearer token: masked. */
export function maskSecretText(text: string): string {
  const inline = SECRET_INLINE.exec(text);
  if (inline) return `${inline[1]}***`;
  return text.replace(/(\/\/[^/:@\s]+:)[^@/\s]+@/g, '$1***@').replace(/(bearer\s+)\S+/gi, '$1***');
}

// Whole words of a name (apiKey → api key, GITHUB_TOKEN → github token): "keys" or "author" are not secrets.
const WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'bearer',
]);

/** Whether a field or variable name says its value is a secret (apiKey, GITHUB_TOKEN, x-auth, client_secret). */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some(word => WORDS.has(word) || /(token|secret|password)$/.test(word));
}
