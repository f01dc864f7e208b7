// Well-known MCP servers on npm, bundled so search works offline. Each package was checked on
// 2026-11-21 with `npm view <pkg> name version description bin dependencies mcpName --json`:
// it exists, has a bin, and is an MCP server (depends on @modelcontextprotocol/sdk or declares
// mcpName). Env vars and args come from each package's README. "archived" marks reference
// servers the MCP project moved to servers-archived: still published, no longer maintained.
// `npm run catalog:check` re-checks all of it (and installs, starts and lists each server).
// args: "{data}" is the server's data folder; never a relative path (it would land in the
// install folder). dataEnv: where a server keeps its data. scripts: install scripts it needs.
import type { CatalogEntryInput } from './catalog-schema.js';

const secret = (name: string, description: string) => ({ name, description, required: true, secret: true });

export const CATALOG_DATA: readonly CatalogEntryInput[] = [
  // Reference servers (modelcontextprotocol/servers), version 2026.8.31 when checked.
  {
    package: '@modelcontextprotocol/server-memory',
    title: 'Memory',
    description:
      'Knowledge-graph memory: entities, relations and observations kept in a local JSON file across sessions.',
    env: [
      {
        name: 'MEMORY_FILE_PATH',
        description: 'Where the graph is stored (default: memory.jsonl in its hub data folder)',
        required: false,
      },
    ],
    dataEnv: { MEMORY_FILE_PATH: 'memory.jsonl' },
    keywords: ['knowledge', 'graph', 'remember'],
  },
  {
    package: '@modelcontextprotocol/server-filesystem',
    title: 'Filesystem',
    description: 'Read, write, search and move files, limited to the directories given as args.',
    args: [],
    argsHint: 'one or more directories the server may access, e.g. args: ["/home/me/project"]',
    keywords: ['files', 'directory', 'fs'],
  },
  {
    package: '@modelcontextprotocol/server-everything',
    title: 'Everything (MCP test server)',
    description:
      'Exercises every MCP feature: tools, resources, prompts, sampling, elicitation, progress. For testing clients.',
    keywords: ['test', 'demo', 'echo'],
  },
  {
    package: '@modelcontextprotocol/server-sequential-thinking',
    title: 'Sequential Thinking',
    description: 'Structured step-by-step reasoning with revisions and branches.',
    keywords: ['reasoning', 'thinking', 'plan'],
  },
  // Archived reference servers: still the best-known packages for these services.
  {
    package: '@modelcontextprotocol/server-github',
    title: 'GitHub (archived reference)',
    description: 'GitHub API: repositories, files, issues, pull requests and code search.',
    env: [secret('GITHUB_PERSONAL_ACCESS_TOKEN', 'A GitHub personal access token')],
    keywords: ['git', 'repository', 'issues', 'pull request'],
  },
  {
    package: '@modelcontextprotocol/server-gitlab',
    title: 'GitLab (archived reference)',
    description: 'GitLab API: projects, files, issues and merge requests.',
    env: [
      secret('GITLAB_PERSONAL_ACCESS_TOKEN', 'A GitLab personal access token'),
      {
        name: 'GITLAB_API_URL',
        description: 'API base for self-hosted GitLab (default https://gitlab.com/api/v4)',
        required: false,
      },
    ],
    keywords: ['git', 'repository', 'merge request'],
  },
  {
    package: '@modelcontextprotocol/server-postgres',
    title: 'PostgreSQL (archived reference)',
    description: 'Read-only SQL queries and schema inspection for a PostgreSQL database.',
    args: ['postgresql://localhost/mydb'],
    argsHint: 'the database URL, e.g. postgresql://user:password@localhost:5432/mydb',
    keywords: ['database', 'sql', 'postgres', 'postgresql', 'db'],
  },
  {
    package: '@modelcontextprotocol/server-redis',
    title: 'Redis (archived reference)',
    description: 'Get, set, list and delete keys in a Redis database.',
    args: ['redis://localhost:6379'],
    argsHint: 'the Redis URL',
    keywords: ['database', 'cache', 'key value', 'db'],
  },
  {
    package: '@modelcontextprotocol/server-puppeteer',
    title: 'Puppeteer (archived reference)',
    description: 'Browser automation with Puppeteer: navigate, screenshot, click, fill and run JavaScript.',
    keywords: ['browser', 'chrome', 'headless', 'scrape'],
  },
  {
    package: '@modelcontextprotocol/server-slack',
    title: 'Slack (archived reference)',
    description: 'Slack workspace: list channels, read history, post messages and reactions.',
    env: [
      secret('SLACK_BOT_TOKEN', 'Bot token starting with xoxb-'),
      { name: 'SLACK_TEAM_ID', description: 'Workspace id starting with T', required: true },
    ],
    keywords: ['chat', 'messages'],
  },
  {
    package: '@modelcontextprotocol/server-google-maps',
    title: 'Google Maps (archived reference)',
    description: 'Geocoding, places search, directions and distances through the Google Maps API.',
    env: [secret('GOOGLE_MAPS_API_KEY', 'A Google Maps Platform API key')],
    keywords: ['maps', 'geocode', 'places', 'location'],
  },
  // Maintained servers from vendors and the community. @heroku/mcp-server was dropped on 2026-11-23:
  // 1.2.6–1.2.8 all fail at start (they import @modelcontextprotocol/sdk/dist/esm/server/mcp without ".js").
  {
    package: '@playwright/mcp',
    title: 'Playwright',
    description: 'Browser automation by Microsoft using accessibility snapshots: navigate, click, type, screenshot.',
    keywords: ['browser', 'automation', 'chrome', 'firefox', 'web', 'test', 'scrape'],
  },
  {
    package: 'chrome-devtools-mcp',
    title: 'Chrome DevTools',
    description: 'Control and inspect a live Chrome: performance traces, network, console and DOM.',
    keywords: ['browser', 'chrome', 'devtools', 'debug'],
  },
  {
    package: '@executeautomation/playwright-mcp-server',
    name: 'playwright-ea',
    title: 'Playwright (ExecuteAutomation)',
    description: 'Browser automation and API testing with Playwright: screenshots, test code generation, scraping.',
    keywords: ['browser', 'test', 'scrape'],
  },
  {
    package: '@browserbasehq/mcp-server-browserbase',
    title: 'Browserbase',
    description: 'Cloud browser automation with Browserbase and Stagehand.',
    env: [
      secret('BROWSERBASE_API_KEY', 'Browserbase API key'),
      { name: 'BROWSERBASE_PROJECT_ID', description: 'Browserbase project id', required: true },
    ],
    keywords: ['browser', 'cloud', 'scrape'],
  },
  {
    package: 'mcp-fetch-server',
    title: 'Fetch',
    description: 'Fetch web pages as HTML, Markdown, plain text or JSON.',
    keywords: ['web', 'http', 'url', 'markdown', 'download'],
  },
  {
    package: '@brave/brave-search-mcp-server',
    title: 'Brave Search',
    description: 'Web, image, video and news search through the Brave Search API.',
    env: [secret('BRAVE_API_KEY', 'A Brave Search API key')],
    keywords: ['web search', 'search engine'],
  },
  {
    package: 'tavily-mcp',
    title: 'Tavily',
    description: 'Web search and page extraction for agents through the Tavily API.',
    env: [secret('TAVILY_API_KEY', 'A Tavily API key')],
    keywords: ['web search', 'extract'],
  },
  {
    package: 'exa-mcp-server',
    title: 'Exa',
    description: 'Web search, content fetching and research through the Exa API.',
    env: [secret('EXA_API_KEY', 'An Exa API key')],
    keywords: ['web search', 'research'],
  },
  {
    package: 'firecrawl-mcp',
    title: 'Firecrawl',
    description: 'Scrape, crawl and search the web as clean Markdown through Firecrawl.',
    env: [secret('FIRECRAWL_API_KEY', 'A Firecrawl API key')],
    keywords: ['scrape', 'crawl', 'web'],
  },
  {
    package: '@upstash/context7-mcp',
    title: 'Context7',
    description: 'Up-to-date library documentation and code examples for prompts.',
    env: [
      { name: 'CONTEXT7_API_KEY', description: 'Optional key for higher rate limits', required: false, secret: true },
    ],
    keywords: ['docs', 'documentation', 'library'],
  },
  {
    package: '@notionhq/notion-mcp-server',
    title: 'Notion',
    description: 'Official Notion API server: search, read and edit pages and databases.',
    env: [secret('NOTION_TOKEN', 'A Notion integration token (ntn_...)')],
    keywords: ['notes', 'wiki', 'docs'],
  },
  {
    package: '@sentry/mcp-server',
    title: 'Sentry',
    description: 'Sentry issues, events, releases and projects for debugging production errors.',
    env: [secret('SENTRY_ACCESS_TOKEN', 'A Sentry user auth token')],
    keywords: ['errors', 'monitoring', 'debug'],
  },
  {
    package: '@stripe/mcp',
    title: 'Stripe',
    description: 'Stripe API: customers, payments, invoices, products and documentation search.',
    env: [secret('STRIPE_SECRET_KEY', 'A Stripe secret (sk_...) or restricted (rk_...) key')],
    keywords: ['payments', 'billing'],
  },
  {
    package: '@supabase/mcp-server-supabase',
    title: 'Supabase',
    description: 'Manage Supabase projects: SQL, tables, migrations, edge functions and logs.',
    args: ['--read-only'],
    argsHint: 'add --project-ref=<ref> to scope it to one project',
    env: [secret('SUPABASE_ACCESS_TOKEN', 'A Supabase personal access token')],
    keywords: ['database', 'postgres', 'sql', 'db'],
  },
  {
    package: 'mongodb-mcp-server',
    title: 'MongoDB',
    description: 'Query and manage MongoDB databases and Atlas clusters.',
    env: [
      { name: 'MDB_MCP_CONNECTION_STRING', description: 'A MongoDB connection string', required: true, secret: true },
    ],
    keywords: ['database', 'nosql', 'atlas', 'db'],
  },
  {
    package: 'mcp-server-sqlite-npx',
    name: 'sqlite',
    title: 'SQLite',
    description: 'Query and change a SQLite database file, with business-insight memos.',
    args: ['{data}/data.sqlite'],
    argsHint: 'the absolute path of the SQLite database file (default: data.sqlite in its hub data folder)',
    scripts: ['sqlite3'],
    keywords: ['database', 'sql', 'db'],
  },
  {
    package: '@executeautomation/database-server',
    title: 'Database (SQLite, SQL Server, PostgreSQL, MySQL)',
    description: 'Run SQL and inspect schemas of SQLite, SQL Server, PostgreSQL or MySQL databases.',
    argsHint:
      'an absolute SQLite file path (e.g. "{data}/data.sqlite" for its hub data folder), or --postgresql/--mysql/--sqlserver with --host, --database, --user, --password',
    scripts: ['sqlite3'],
    keywords: ['database', 'sql', 'sqlite', 'postgres', 'mysql', 'db'],
  },
  {
    package: '@benborla29/mcp-server-mysql',
    title: 'MySQL',
    description: 'SQL queries against a MySQL database, read-only unless writes are enabled.',
    env: [
      { name: 'MYSQL_USER', description: 'Database user', required: true },
      { name: 'MYSQL_PASS', description: 'Database password', required: false, secret: true },
      { name: 'MYSQL_HOST', description: 'Host (default 127.0.0.1)', required: false },
      { name: 'MYSQL_DB', description: 'Database name (all when unset)', required: false },
    ],
    keywords: ['database', 'sql', 'db'],
  },
  {
    package: 'mcp-server-kubernetes',
    title: 'Kubernetes',
    description: 'Manage Kubernetes clusters through kubectl and your kubeconfig: pods, deployments, logs, Helm.',
    keywords: ['k8s', 'kubectl', 'cluster', 'helm'],
  },
  {
    package: '@circleci/mcp-server-circleci',
    title: 'CircleCI',
    description: 'CircleCI pipelines: build failure logs, flaky tests and pipeline status.',
    env: [secret('CIRCLECI_TOKEN', 'A CircleCI personal API token')],
    keywords: ['ci', 'builds', 'pipelines'],
  },
  {
    package: 'figma-developer-mcp',
    name: 'figma',
    title: 'Figma (Framelink)',
    description: 'Figma file and frame data for implementing designs in code.',
    args: ['--stdio'],
    env: [secret('FIGMA_API_KEY', 'A Figma personal access token')],
    keywords: ['design', 'ui'],
  },
  {
    package: '@elastic/mcp-server-elasticsearch',
    title: 'Elasticsearch',
    description: 'List indices, read mappings and run searches and ES|QL on Elasticsearch.',
    env: [
      { name: 'ES_URL', description: 'Elasticsearch URL', required: true },
      { name: 'ES_API_KEY', description: 'API key (or ES_USERNAME and ES_PASSWORD)', required: false, secret: true },
    ],
    keywords: ['search', 'database', 'logs'],
  },
  {
    package: '@kimtaeyoon83/mcp-server-youtube-transcript',
    title: 'YouTube Transcript',
    description: 'Fetch the transcript and subtitles of a YouTube video.',
    keywords: ['video', 'subtitles', 'captions'],
  },
];
