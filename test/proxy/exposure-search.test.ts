// tools.search's ranking on the real tools/list of 15 published servers and 74 labelled
// queries (test/fixtures/tool-lists/): recall@5 must stay at 0.9 or above (issue 14, item 2).
import { expect, test } from 'vitest';
import { buildRoutes } from '../../src/proxy/routes.js';
import { buildToolIndex } from '../../src/proxy/tool-search.js';
import { labelledQueries, toolListRecords } from '../helpers/tool-lists.js';

test('recall@5 over the labelled queries is at least 0.9, recall@1 at least 0.7', () => {
  const table = buildRoutes(toolListRecords());
  const index = buildToolIndex(table.routes);
  const queries = labelledQueries();
  expect(queries.length).toBeGreaterThanOrEqual(60);
  let at1 = 0;
  let at5 = 0;
  const misses: string[] = [];
  for (const { query, expect: wanted } of queries) {
    const hits = index.search(query, { limit: 5 }).map(hit => `${hit.route.server}/${hit.route.tool}`);
    if (wanted.includes(hits[0] ?? '')) at1 += 1;
    if (hits.some(hit => wanted.includes(hit))) at5 += 1;
    else misses.push(`${query} → ${hits.join(', ')}`);
  }
  const recall5 = at5 / queries.length;
  expect(misses.length === 0 || recall5 >= 0.9, misses.join('\n')).toBe(true);
  expect(recall5).toBeGreaterThanOrEqual(0.9);
  expect(at1 / queries.length).toBeGreaterThanOrEqual(0.7);
});
