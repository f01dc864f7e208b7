// HUB_HOMEs as people, crashes and other hub versions leave them: db.json (valid, from before the
// version field, from a newer hub, garbage, cut short, with fields added or missing or of the
// wrong type), db.json.bak, and tools/<name>.json. cold-read.test.ts runs each through both of
// the store's readers (the full store and the cold-start lane's zero-dependency one).

export interface StoreFixture {
  readonly name: string;
  /** db.json's text; absent: no db.json. */
  readonly db?: string;
  readonly backup?: string;
  /** tools/<name>.json texts by server name. */
  readonly tools?: Readonly<Record<string, string>>;
  /** Plainly well formed: the cold reader must answer it itself, not hand over. */
  readonly coldAnswers?: boolean;
}

type Json = Record<string, unknown>;

// As hub writes it (store-file.ts): pretty-printed, with a final newline.
const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const tool = (name: string, extra: Json = {}): Json => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  ...extra,
});

export const prompt = (name: string, extra: Json = {}): Json => ({
  name,
  title: `The ${name} prompt`,
  description: `the ${name} prompt`,
  arguments: [{ name: 'topic', required: true }],
  ...extra,
});
export const resource = (name: string, extra: Json = {}): Json => ({
  uri: `demo://${name}`,
  name,
  mimeType: 'text/plain',
  ...extra,
});
export const template = (name: string, extra: Json = {}): Json => ({
  uriTemplate: `demo://${name}/{id}`,
  name,
  ...extra,
});

export const server = (name: string, extra: Json = {}): Json => ({
  name,
  command: 'node',
  args: ['server.js'],
  env: {},
  mode: 'command',
  installedAt: '2026-01-01T00:00:00.000Z',
  order: 1,
  autoStart: false,
  ...extra,
});

const processRecord = (id: string, extra: Json = {}): Json => ({
  id,
  command: 'sleep 1',
  cwd: '/tmp',
  envKeys: [],
  tags: [],
  ports: [],
  pid: 4242,
  status: 'exited',
  startedAt: '2026-01-01T00:00:00.000Z',
  logFile: `/tmp/${id}.log`,
  ...extra,
});

export const db = (servers: Json, extra: Json = {}): string =>
  pretty({ version: 1, servers, processes: { p1: processRecord('p1') }, reservations: { 4000: 1 }, ...extra });

const toolFile = (name: string, tools: Json[], extra: Json = {}): string =>
  pretty({ server: name, updatedAt: '2026-01-02T00:00:00.000Z', tools, ...extra });

const cached = (name: string, extra: Json = {}): Json =>
  server(name, { toolsUpdatedAt: '2026-01-02T00:00:00.000Z', ...extra });

const three = db({
  alpha: server('alpha', { tools: [tool('a1'), tool('a2')] }),
  beta: server('beta', { order: 2, tools: [tool('b1')] }),
  gamma: server('gamma', { order: 3, tools: [tool('g1'), tool('g2'), tool('g3')] }),
});

export const STORE_FIXTURES: readonly StoreFixture[] = [
  // Valid.
  { name: 'no db.json at all', coldAnswers: true },
  {
    name: 'the empty store',
    db: pretty({ version: 1, servers: {}, processes: {}, reservations: {} }),
    coldAnswers: true,
  },
  { name: 'three servers with inline tools', db: three, coldAnswers: true },
  {
    name: 'an npm server whose tools are in tools/<name>.json (with issues)',
    db: db({ memory: cached('memory', { mode: 'npm', package: '@x/memory', version: '1.0.0', tools: [] }) }),
    tools: {
      memory: toolFile('memory', [tool('read'), tool('write')], {
        issues: [{ tool: 'huge', action: 'skipped', reason: 'too big' }],
      }),
    },
    coldAnswers: true,
  },
  {
    name: 'servers with settings (disabled, allow, deny), approved fingerprints and approved tool definitions',
    db: db({
      gh: cached('gh', { settings: { allow: ['get_*'], deny: ['get_secret'] }, fingerprints: { get_file: 'ab12' } }),
      off: cached('off', { settings: { enabled: false } }),
    }),
    tools: {
      gh: toolFile('gh', [tool('get_file'), tool('get_secret')], { approvedTools: [tool('get_file')] }),
      off: toolFile('off', [tool('x')]),
    },
    coldAnswers: true,
  },
  {
    name: 'a server with prompts, resources and templates cached beside its tools',
    db: db({ everything: cached('everything') }),
    tools: {
      everything: toolFile('everything', [tool('echo')], {
        surface: {
          prompts: [prompt('simple', { arguments: undefined }), prompt('args', { icons: [{ src: 'x.png' }] })],
          resources: [resource('one'), resource('two', { annotations: { priority: 1 } })],
          resourceTemplates: [template('item')],
        },
      }),
    },
    coldAnswers: true,
  },
  {
    name: 'a cached surface with a field hub does not know',
    db: db({ a: cached('a') }),
    tools: {
      a: toolFile('a', [tool('x')], {
        surface: { prompts: [], resources: [resource('r')], resourceTemplates: [], future: [] },
      }),
    },
  },
  {
    name: 'a cached resource without a uri',
    db: db({ a: cached('a', { tools: [tool('inline')] }) }),
    tools: {
      a: toolFile('a', [tool('x')], { surface: { prompts: [], resources: [{ name: 'r' }], resourceTemplates: [] } }),
    },
  },
  {
    name: 'every optional field set',
    db: db({
      full: server('full', {
        package: 'full-mcp',
        version: '2.0.0',
        cwd: '/srv',
        autoStart: true,
        source: 'catalog',
        instructions: 'Use me.',
        dataDir: '/home/x/.hub/data/full',
        requiredEnv: ['API_KEY'],
        allowScripts: ['esbuild'],
        env: { API_KEY: 'k' },
        tools: [tool('t')],
      }),
      scripts: server('scripts', { order: 2, allowScripts: true }),
    }),
    coldAnswers: true,
  },
  {
    name: 'servers of every kind, a remote one with headers and a transport',
    db: db({
      docs: server('docs', {
        kind: 'remote',
        command: 'https://mcp.example.com/mcp',
        args: [],
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' }, transport: 'sse' },
        tools: [tool('search')],
      }),
      py: server('py', { order: 2, kind: 'pypi', command: 'uvx', args: ['mcp-server-time'] }),
      box: server('box', { order: 3, kind: 'oci', command: 'docker', remote: undefined }),
    }),
    coldAnswers: true,
  },
  {
    name: 'a remote record without a url, and a kind hub does not know',
    db: db({
      a: server('a', { kind: 'remote', remote: { headers: {} }, tools: [tool('x')] }),
      b: server('b', { order: 2, kind: 'nuget', tools: [tool('y')] }),
    }),
  },
  {
    name: 'toolsUpdatedAt set but tools/<name>.json gone: the inline list',
    db: db({ memory: cached('memory', { tools: [tool('old')] }) }),
    coldAnswers: true,
  },
  {
    name: 'no reservations section (it has a default)',
    db: pretty({ version: 1, servers: { a: server('a', { tools: [tool('x')] }) }, processes: {} }),
    coldAnswers: true,
  },
  {
    name: 'tools with fields hub does not know (kept verbatim)',
    db: db({
      a: server('a', { tools: [tool('x', { annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } })] }),
    }),
    coldAnswers: true,
  },
  { name: 'written compactly by hand, not by hub', db: JSON.stringify(JSON.parse(three)), coldAnswers: true },
  { name: 'top-level fields hub does not know', db: db({ a: server('a') }, { future: { x: 1 } }), coldAnswers: true },
  {
    name: 'a damaged process record (servers unaffected)',
    db: db({ a: server('a', { tools: [tool('x')] }) }, { processes: { p1: processRecord('p1', { pid: 'NaN' }) } }),
  },
  { name: 'damaged reservations', db: db({ a: server('a') }, { reservations: { 4000: 'soon' } }) },

  // Old and newer versions.
  {
    name: 'from before the version field',
    db: pretty({ servers: { a: server('a', { tools: [tool('x')] }) }, processes: {} }),
  },
  { name: 'version as a string', db: pretty({ version: '1', servers: { a: server('a') }, processes: {} }) },
  { name: 'from a newer hub', db: pretty({ version: 2, servers: { a: server('a') }, processes: {}, future: true }) },
  {
    name: 'from a newer hub, and cut short',
    db: pretty({ version: 2, servers: { a: server('a') }, processes: {} }).slice(0, 60),
  },

  // Corrupted.
  { name: 'garbage', db: '{"version": 1, "servers": {tru' },
  { name: 'an empty file', db: '' },
  { name: 'only whitespace', db: '  \n' },
  { name: 'a JSON array', db: '[]' },
  { name: 'JSON null', db: 'null' },
  { name: 'a JSON string', db: '"db"' },
  { name: 'servers is an array', db: pretty({ version: 1, servers: [], processes: {} }) },
  { name: 'a typo by hand in the middle', db: three.replace('"beta": {', '"beta": {,') },

  // Truncated (a full disk, an editor killed).
  { name: 'cut in half', db: three.slice(0, Math.floor(three.length / 2)) },
  { name: 'cut one byte short', db: three.slice(0, -2) },
  { name: 'cut in half, with db.json.bak', db: three.slice(0, Math.floor(three.length / 2)), backup: three },

  // Extra fields.
  { name: 'a server record with a field hub does not know', db: db({ a: server('a', { colour: 'blue' }) }) },
  {
    name: 'tools/<name>.json with a field hub does not know',
    db: db({ a: cached('a') }),
    tools: { a: toolFile('a', [tool('x')], { colour: 'blue' }) },
  },
  {
    name: 'a tool issue with a field hub does not know',
    db: db({ a: cached('a') }),
    tools: { a: toolFile('a', [tool('x')], { issues: [{ tool: 'y', action: 'trimmed', reason: 'r', by: 'me' }] }) },
  },

  // Missing fields.
  { name: 'a server without command', db: db({ a: server('a', { command: undefined }), b: server('b') }) },
  { name: 'a server without order', db: db({ a: server('a', { order: undefined }) }) },
  { name: 'no processes section', db: pretty({ version: 1, servers: { a: server('a') } }) },
  { name: 'no servers section', db: pretty({ version: 1, processes: {} }) },
  { name: 'a tool without inputSchema', db: db({ a: server('a', { tools: [{ name: 'x' }] }) }) },
  { name: 'a tool without a name', db: db({ a: server('a', { tools: [{ inputSchema: { type: 'object' } }] }) }) },
  {
    name: 'tools/<name>.json without updatedAt',
    db: db({ a: cached('a') }),
    tools: { a: pretty({ server: 'a', tools: [] }) },
  },

  // Wrong types and values.
  { name: 'a record filed under another name', db: db({ a: server('b') }) },
  { name: 'order not an integer', db: db({ a: server('a', { order: 1.5 }) }) },
  { name: 'an env value not a string', db: db({ a: server('a', { env: { PORT: 3000 } }) }) },
  { name: 'an unknown mode', db: db({ a: server('a', { mode: 'docker' }) }) },
  { name: 'dataDir not a string', db: db({ a: server('a', { dataDir: 5 }) }) },
  { name: 'requiredEnv not strings', db: db({ a: server('a', { requiredEnv: [1] }) }) },
  { name: 'allowScripts a string', db: db({ a: server('a', { allowScripts: 'yes' }) }) },
  { name: 'a tool description null', db: db({ a: server('a', { tools: [tool('x', { description: null })] }) }) },
  {
    name: "a tool's inputSchema not an object schema",
    db: db({ a: server('a', { tools: [tool('x', { inputSchema: { type: 'string' } })] }) }),
  },
  { name: 'toolsUpdatedAt a number', db: db({ a: server('a', { toolsUpdatedAt: 5, tools: [tool('x')] }) }) },
  {
    name: 'tools/<name>.json with a bad issue',
    db: db({ a: cached('a', { tools: [tool('inline')] }) }),
    tools: { a: toolFile('a', [tool('x')], { issues: [{ tool: 'y', action: 'dropped', reason: 'r' }] }) },
  },
  {
    name: 'tools/<name>.json of another server',
    db: db({ a: cached('a', { tools: [tool('inline')] }) }),
    tools: { a: toolFile('b', [tool('x')]) },
  },
  {
    name: 'tools/<name>.json not JSON',
    db: db({ a: cached('a', { tools: [tool('inline')] }) }),
    tools: { a: '{"server": "a", "to' },
  },
  {
    name: 'tools/<name>.json with a bad tool',
    db: db({ a: cached('a', { tools: [tool('inline')] }) }),
    tools: { a: toolFile('a', [{ name: 'x' }]) },
  },
];

// Values of every JSON type, for each field in turn (cold-read.test.ts).
export const ODD_VALUES: readonly unknown[] = [
  null,
  0,
  1.5,
  'x',
  '',
  true,
  [],
  ['a'],
  [1],
  {},
  { a: 'b' },
  { a: 1 },
  { type: 'object' },
];
