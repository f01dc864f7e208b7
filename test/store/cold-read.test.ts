// The store's two readers of db.json and tools/<name>.json must never disagree: the cold-start
// lane's zero-dependency reader (store/cold-read.ts) may hand over to the full hub (undefined)
// more often than needed, but whatever it answers is exactly what the full store lists (same
// servers, order and tool names), and it never answers where the store refuses.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { hubPaths } from '../../src/core/paths.js';
import {
  COLD_SURFACE_FIELDS,
  COLD_SURFACE_REQUIRED,
  COLD_SERVER_FIELDS,
  COLD_SERVER_REQUIRED,
  COLD_TOOL_FILE_FIELDS,
  COLD_TOOL_FILE_REQUIRED,
  leanServers,
} from '../../src/store/cold-read.js';
import { CachedSurfaceSchema, STORE_VERSION, ServerRecordSchema, ToolCacheFileSchema } from '../../src/store/schema.js';
import { openStore } from '../../src/store/store.js';
import { allWithTools } from '../../src/store/tool-cache.js';
import {
  ODD_VALUES,
  STORE_FIXTURES,
  db,
  prompt,
  resource,
  server,
  template,
  tool,
  type StoreFixture,
} from './fixtures.js';

// settings: the record's settings and fingerprints as JSON (the listing applies them: proxy/listing/tool-filter.ts).
type Listing = { name: string; order: number; tools: string[]; surface: string[][]; settings: string }[];
type Named = { name?: unknown; uri?: unknown; uriTemplate?: unknown };
type Surface = { prompts: Named[]; resources: Named[]; resourceTemplates: Named[] } | undefined;

// Prompt names, resource URIs and template URIs: what each lane lists from the cache.
const surfaceOf = (surface: Surface): string[][] => [
  (surface?.prompts ?? []).map(p => String(p.name)),
  (surface?.resources ?? []).map(r => String(r.uri)),
  (surface?.resourceTemplates ?? []).map(t => String(t.uriTemplate)),
];

const root = mkdtempSync(join(tmpdir(), 'hub-test-cold-read-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let homes = 0;

function homeWith(fixture: StoreFixture): string {
  const home = join(root, String((homes += 1)));
  const paths = hubPaths(home);
  mkdirSync(paths.toolsDir, { recursive: true });
  if (fixture.db !== undefined) writeFileSync(paths.db, fixture.db);
  if (fixture.backup !== undefined) writeFileSync(`${paths.db}.bak`, fixture.backup);
  for (const [name, text] of Object.entries(fixture.tools ?? {})) writeFileSync(paths.toolsFile(name), text);
  return home;
}

const sorted = (listing: Listing): Listing => [...listing].sort((a, b) => a.name.localeCompare(b.name));

// Each reader gets its own copy: the store repairs a damaged file in place.
function cold(fixture: StoreFixture): Listing | undefined {
  const servers = leanServers(homeWith(fixture), STORE_VERSION);
  return (
    servers &&
    sorted(
      servers.map(s => ({
        name: s.name,
        order: s.order,
        tools: s.tools.map(t => String(t.name)),
        surface: surfaceOf(s.surface),
        settings: JSON.stringify([s.settings ?? null, s.fingerprints ?? null]),
      })),
    )
  );
}

async function full(fixture: StoreFixture): Promise<Listing | 'refused'> {
  const paths = hubPaths(homeWith(fixture));
  try {
    const data = await openStore(paths).read();
    const servers = allWithTools(paths, Object.values(data.servers));
    return sorted(
      servers.map(s => ({
        name: s.name,
        order: s.order,
        tools: s.tools.map(t => t.name),
        surface: surfaceOf(s.surface),
        settings: JSON.stringify([s.settings ?? null, s.fingerprints ?? null]),
      })),
    );
  } catch {
    return 'refused';
  }
}

async function expectAgreement(fixture: StoreFixture): Promise<void> {
  const lean = cold(fixture);
  const store = await full(fixture);
  if (lean !== undefined) expect(store, `${fixture.name}: the cold reader answered`).toEqual(lean);
  if (fixture.coldAnswers) expect(lean, `${fixture.name}: plainly well formed`).toBeDefined();
}

describe('the cold reader and the store agree', () => {
  test.each(STORE_FIXTURES.map(fixture => [fixture.name, fixture] as const))('%s', async (_name, fixture) => {
    await expectAgreement(fixture);
  });

  test('every server field, set to a value of each JSON type', async () => {
    let answered = 0;
    for (const field of Object.keys(ServerRecordSchema.shape)) {
      for (const value of ODD_VALUES) {
        const fixture = { name: `${field} = ${JSON.stringify(value)}`, db: db({ a: server('a', { [field]: value }) }) };
        await expectAgreement(fixture);
        if (cold(fixture) !== undefined) answered += 1;
      }
    }
    // Not a test of a reader that refuses everything: the valid values are answered.
    expect(answered).toBeGreaterThan(10);
  });

  test('every surface field, and each field of its entries, set to a value of each JSON type', async () => {
    const entries = { prompts: prompt('p'), resources: resource('r'), resourceTemplates: template('t') };
    const good = { prompts: [prompt('p')], resources: [resource('r')], resourceTemplates: [template('t')] };
    let answered = 0;
    for (const [field, entry] of Object.entries(entries)) {
      for (const key of [...Object.keys(entry), 'arguments']) {
        for (const value of [...ODD_VALUES, [{ name: 'a' }], [{ title: 'no name' }]]) {
          const surface = { ...good, [field]: [{ ...entry, [key]: value }] };
          const fixture = {
            name: `surface ${field}[0].${key} = ${JSON.stringify(value)}`,
            db: db({ a: server('a', { toolsUpdatedAt: '2026-01-02T00:00:00.000Z', tools: [tool('inline')] }) }),
            tools: { a: JSON.stringify({ server: 'a', updatedAt: 'x', tools: [tool('x')], surface }) },
          };
          await expectAgreement(fixture);
          if (cold(fixture) !== undefined) answered += 1;
        }
      }
      for (const value of ODD_VALUES) {
        await expectAgreement({
          name: `surface ${field} = ${JSON.stringify(value)}`,
          db: db({ a: server('a', { toolsUpdatedAt: '2026-01-02T00:00:00.000Z' }) }),
          tools: {
            a: JSON.stringify({ server: 'a', updatedAt: 'x', tools: [], surface: { ...good, [field]: value } }),
          },
        });
      }
    }
    expect(answered).toBeGreaterThan(10);
  });

  test('every tools/<name>.json field, set to a value of each JSON type', async () => {
    const base = { server: 'a', updatedAt: '2026-01-02T00:00:00.000Z', tools: [tool('x')] };
    for (const field of Object.keys(ToolCacheFileSchema.shape)) {
      for (const value of ODD_VALUES) {
        await expectAgreement({
          name: `tools file ${field} = ${JSON.stringify(value)}`,
          db: db({ a: server('a', { toolsUpdatedAt: '2026-01-02T00:00:00.000Z', tools: [tool('inline')] }) }),
          tools: { a: JSON.stringify({ ...base, [field]: value }) },
        });
      }
    }
  });
});

describe("the cold reader's hand-written checks follow schema.ts", () => {
  // A field added to the schema must be added to the cold reader's table (until then the
  // lane hands every record that has it to the full hub).
  const required = (shape: Record<string, { safeParse(value: unknown): { success: boolean } }>) =>
    Object.keys(shape)
      .filter(field => !shape[field]!.safeParse(undefined).success)
      .sort();

  test('server records: the same fields, the same ones required', () => {
    expect(Object.keys(COLD_SERVER_FIELDS).sort()).toEqual(Object.keys(ServerRecordSchema.shape).sort());
    expect([...COLD_SERVER_REQUIRED].sort()).toEqual(required(ServerRecordSchema.shape));
  });

  test('the surface in tools/<name>.json: the same fields, the same ones required', () => {
    expect(Object.keys(COLD_SURFACE_FIELDS).sort()).toEqual(Object.keys(CachedSurfaceSchema.shape).sort());
    expect([...COLD_SURFACE_REQUIRED].sort()).toEqual(required(CachedSurfaceSchema.shape));
  });

  test('tools/<name>.json: the same fields, the same ones required', () => {
    expect(Object.keys(COLD_TOOL_FILE_FIELDS).sort()).toEqual(Object.keys(ToolCacheFileSchema.shape).sort());
    expect([...COLD_TOOL_FILE_REQUIRED].sort()).toEqual(required(ToolCacheFileSchema.shape));
  });
});
