// The routing table of every slot's tools, rebuilt when they change, with list_changed announced.
import type { ServerWithTools } from '../../store/schema.js';
import { buildRoutes, type RouteTable } from './routes.js';
import type { IntegrityMode } from './tool-integrity.js';

/**
 * The routing table of every slot's tools, rebuilt whenever a slot's tools or the set of slots
 * change; a change in what tools/list shows is announced (list_changed).
 */
export class RouteListing {
  #table: RouteTable;

  constructor(
    private readonly records: () => readonly ServerWithTools[],
    private readonly changed: () => void,
    /** config `integrity` as it is now: what a tool that differs from its approved definition gets (tool-filter.ts). */
    private readonly integrity: () => IntegrityMode = () => 'withhold',
  ) {
    this.#table = buildRoutes(records(), { integrity: integrity() });
  }

  get table(): RouteTable {
    return this.#table;
  }

  rebuild(): void {
    const before = this.#table.signature;
    this.#table = buildRoutes(this.records(), { integrity: this.integrity() });
    if (this.#table.signature !== before) this.changed();
  }
}
