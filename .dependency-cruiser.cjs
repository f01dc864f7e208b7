// The one direction of src/ (see ARCHITECTURE.md): each layer imports only the layers listed
// after its name. A new upward import or an import cycle fails `npm run lint`.
const layers = {
  core: [],
  store: ['core'],
  process: ['store', 'core'],
  wire: ['core'],
  proxy: ['wire', 'process', 'store', 'core'],
  registry: ['proxy', 'wire', 'process', 'store', 'core'],
  tools: ['registry', 'proxy', 'wire', 'process', 'store', 'core'],
  clients: ['registry', 'proxy', 'process', 'store', 'core'],
  // How an entry or a command finds, starts and talks to the shared hub (no hub inside).
  'hub-link': ['store', 'core'],
  // cli/serve.ts loads http/ (which runs a hub core) lazily: the one CLI command above hub.ts;
  // cli/ui.ts loads dashboard/ (which reads through tools/) for `hub ui`.
  cli: ['http', 'dashboard', 'hub-link', 'clients', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
};
// Top-level files: hub.ts assembles the MCP server from the layers; the cold-start lane and the
// entry points sit above it.
const files = {
  // hub-core.ts: what one hub process shares between its sessions; hub.ts: a session on it.
  'hub-core.ts': ['tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
  'hub.ts': ['hub-core.ts', 'tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
  'cold-start': ['hub.ts', 'proxy', 'wire', 'store', 'core'],
  // The shared hub process: one hub core, a session per entry on its socket, and the dashboard
  // when `hub ui` asks for it.
  'shared-hub': ['dashboard', 'hub.ts', 'hub-link', 'store', 'core'],
  // Streamable HTTP (hub serve): sessions built with hub.ts's createSession.
  http: ['shared-hub', 'hub-link', 'hub.ts', 'tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
};

const folder = name => (name.endsWith('.ts') ? `src/${name.replace('.', '\\.')}$` : `src/${name}/`);
const forbidden = Object.entries({ ...layers, ...files }).map(([name, allowed]) => ({
  name: `${name} imports only ${allowed.length ? allowed.join(', ') : 'core'}`,
  comment: `Move the code down a layer or pass it in from above (ARCHITECTURE.md).`,
  severity: 'error',
  from: { path: `^${folder(name)}` },
  to: { path: '^src/', pathNot: [`^${folder(name)}`, ...allowed.map(a => `^${folder(a)}`)] },
}));

module.exports = {
  forbidden: [
    ...forbidden,
    {
      name: 'no-cycle',
      comment: 'Files that import each other in a loop: move the shared part into its own module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
