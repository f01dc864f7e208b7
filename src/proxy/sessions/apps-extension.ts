// MCP Apps (io.modelcontextprotocol/ui): its entry among the extensions hub carries.
import { supportsExtension, type ExtensionEntry } from './extensions.js';

// MCP Apps (`io.modelcontextprotocol/ui`, @modelcontextprotocol/ext-apps 2.0): its entry in the
// extensions hub carries (extensions.ts). The listing side is proxy/listing/apps.ts.

export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML (ext-apps RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export const appsExtension: ExtensionEntry = {
  id: APPS_EXTENSION,
  offer: { mimeTypes: [APP_MIME_TYPE] },
  problem(declared) {
    const { mimeTypes } = declared;
    if (mimeTypes === undefined) return undefined;
    if (!Array.isArray(mimeTypes) || !mimeTypes.every(type => typeof type === 'string'))
      return `.mimeTypes must be a list of strings such as ["${APP_MIME_TYPE}"]`;
    return undefined;
  },
};

/** Whether a session declared MCP Apps usably at initialize (it is then shown apps' views and metadata). */
export const takesApps = (capabilities: Readonly<Record<string, unknown>> | undefined): boolean =>
  supportsExtension(capabilities, [appsExtension], APPS_EXTENSION);
