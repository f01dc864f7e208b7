// The environment a child runs with: a safe base from the hub or its session, plus its own env.
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';

// Beyond the SDK's sudo-like list: locale, temp dir, and what a server needs to reach the
// network through a corporate proxy or CA. Never hub's whole environment (it may hold secrets).
const EXTRA_KEYS = [
  'LANG',
  'LANGUAGE',
  'TMPDIR',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];

/**
 * The environment a child MCP server runs with: the safe base plus its record's own env. The base
 * comes from source: the hub's environment, or for a per-session server its session's (a client's
 * entry), never another client's.
 */
export function childEnvironment(
  declared: Record<string, string>,
  source: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    // Shell functions exported into the environment are a security risk (as the SDK's list says).
    if (value === undefined || value.startsWith('()')) continue;
    if (DEFAULT_INHERITED_ENV_VARS.includes(key) || EXTRA_KEYS.includes(key) || key.startsWith('LC_')) env[key] = value;
  }
  return { ...env, ...declared };
}
