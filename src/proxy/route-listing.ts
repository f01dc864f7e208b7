import type { ServerWithTools } from '../store/schema.js';
import { buildRoutes, type RouteTable } from './routes.js';

/**
 * The routing table of every slot's tools, rebuilt whenever a slot's tools or the set of slots
 * change; a change in what tools/list shows is announced (list_changed).
 */
export class RouteListing {
  #table: RouteTable;

  constructor(
    private readonly records: () => readonly ServerWithTools[],
    private readonly changed: () => void,
  ) {
    this.#table = buildRoutes(records());
  }

  get table(): RouteTable {
    return this.#table;
  }

  rebuild(): void {
    const before = this.#table.signature;
    this.#table = buildRoutes(this.records());
    if (this.#table.signature !== before) this.changed();
  }
}
