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
  // The web dashboard's server: it reads and acts through the same tools and managers as MCP.
  dashboard: ['tools', 'registry', 'proxy', 'process', 'store', 'core'],
};
// Top-level files: hub.ts assembles the MCP server from the layers; the cold-start lane and the
// entry points sit above it.
const files = {
  // hub-core.ts: what one hub process shares between its sessions; hub.ts: a session on it.
  'hub-core.ts': ['session', 'tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
  // session/: the pieces createSession assembles a client session from (its tool handlers, its lanes).
  session: ['tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
  'hub.ts': ['hub-core.ts', 'session', 'tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
  'cold-start': ['hub.ts', 'proxy', 'wire', 'store', 'core'],
  // The shared hub process: one hub core, a session per entry on its socket, and the dashboard
  // when `hub ui` asks for it.
  'shared-hub': ['dashboard', 'hub.ts', 'hub-link', 'store', 'core'],
  // Streamable HTTP (hub serve): sessions built with hub.ts's createSession.
  http: ['shared-hub', 'hub-link', 'hub.ts', 'tools', 'registry', 'proxy', 'wire', 'process', 'store', 'core'],
};

// Inside the three biggest layers, parts (sub-folders) in one direction too: each part imports only
// the parts listed after its name, never its own layer's root files (they are the layer's face, which
// assembles the parts). See ARCHITECTURE.md "Inside proxy/, registry/ and process/".
const parts = {
  proxy: {
    sessions: [],
    listing: [],
    exposure: ['listing', 'sessions'],
    oauth: ['sessions'],
    sandbox: ['exposure', 'sessions'],
    child: ['sandbox', 'oauth', 'listing', 'sessions'],
    slots: ['child', 'oauth', 'listing', 'sessions'],
    calls: ['slots', 'oauth', 'listing', 'sessions'],
    surface: ['calls', 'slots', 'child', 'listing', 'sessions'],
    tasks: ['calls', 'slots', 'child', 'listing', 'sessions'],
  },
  registry: {
    npm: [],
    sources: ['npm'],
    decisions: [],
    search: ['sources', 'npm'],
    install: ['decisions', 'sources', 'npm'],
    installed: ['install', 'decisions', 'sources', 'npm'],
  },
  process: {
    logs: [],
    keeper: ['logs'],
    lifecycle: ['keeper', 'logs'],
    terminal: ['lifecycle', 'keeper', 'logs'],
  },
};
const partRules = Object.entries(parts).flatMap(([layer, table]) =>
  Object.entries(table).map(([part, allowed]) => ({
    name: `${layer}/${part} imports only ${allowed.length ? allowed.join(', ') : 'nothing'} of ${layer}/`,
    comment: `A part never imports its layer's root files or a part above it (ARCHITECTURE.md).`,
    severity: 'error',
    from: { path: `^src/${layer}/${part}/` },
    to: { path: `^src/${layer}/`, pathNot: [`^src/${layer}/${part}/`, ...allowed.map(a => `^src/${layer}/${a}/`)] },
  })),
);
// A file straight in a layer with parts is its face; anything else goes into a part.
const partNames = layer => Object.keys(parts[layer]).join('|');

// What the entry process loads before it is a relay, and as one (server.ts imports these first).
const LEAN_ENTRY = [
  '^src/cold-start/(bootstrap|lane-answers|listing)\\.ts$',
  '^src/hub-link/(entry|start|record|heartbeat|lines|client-writer|paths|protocol)\\.ts$',
  '^src/store/cold-[a-z-]+\\.ts$',
  '^src/core/(paths|naming|version|exposed-names|process-log-listing|listing-digest|process-identity|write-atomic|clip|canonical-json)\\.ts$',
  // What the cold-start lane shares with the full hub: all of proxy/listing/, three of exposure/.
  '^src/proxy/listing/',
  '^src/proxy/exposure/(plan|project-lookup|known-clients)\\.ts$',
  '^src/wire/(json-lines|era)\\.ts$',
];

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
    ...partRules,
    ...Object.keys(parts).map(layer => ({
      name: `${layer}/ holds its face and its parts only`,
      comment: `Put the file in one of the parts of ${layer}/ (${partNames(layer)}), or in a new part with its rule.`,
      severity: 'error',
      from: { path: `^src/${layer}/[^/]+/`, pathNot: `^src/${layer}/(${partNames(layer)})/` },
      to: {},
    })),
    {
      // The cold-start lane shares with the full hub only the zod- and SDK-free part of proxy/.
      name: 'cold-start imports only proxy/listing and exposure/{plan,project-lookup,known-clients}',
      comment: 'The lane must stay small: what it needs from proxy/ belongs in proxy/listing/.',
      severity: 'error',
      from: { path: '^src/cold-start/' },
      to: {
        path: '^src/proxy/',
        pathNot: ['^src/proxy/listing/', '^src/proxy/exposure/(plan|project-lookup|known-clients)\\.ts$'],
      },
    },
    {
      // Issue 27 item 10: the entry process (the cold-start lane, then a relay to the shared hub)
      // loads neither zod nor the SDK; test/e2e/entry-modules.test.ts checks what it loads.
      name: 'lean-entry-no-zod-or-sdk',
      comment:
        'The cold-start lane and the entry run before (or without) the full hub: import types only (import type), or move the code out of the lane.',
      severity: 'error',
      from: { path: LEAN_ENTRY },
      to: { path: '^node_modules/(zod|@modelcontextprotocol/sdk)/', dependencyTypesNot: ['type-only'] },
    },
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
    // zod and the SDK are in the graph (not followed) for the lean-entry rule.
    includeOnly: '^(src/|node_modules/(zod|@modelcontextprotocol/sdk)/)',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
