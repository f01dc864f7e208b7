// The prompt table and resource routes of every slot's surface, rebuilt, with changes announced.
import type { ServerWithTools } from '../../store/schema.js';
import type { ListKind } from '../sessions/client-side.js';
import { buildPromptRoutes, type PromptTable } from '../listing/prompt-routes.js';
import { buildResourceRoutes, type ResourceRoutes } from './resource-routes.js';

/**
 * The prompt routing table and the resource routes of every slot's cached surface, rebuilt when a
 * child lists again or the set of servers changes; a change in what a list shows is announced.
 */
export class SurfaceListing {
  #prompts: PromptTable;
  #resources: ResourceRoutes;

  constructor(
    private readonly records: () => readonly ServerWithTools[],
    private readonly changed: (kind: ListKind) => void,
  ) {
    this.#prompts = buildPromptRoutes(records());
    this.#resources = buildResourceRoutes(records());
  }

  get prompts(): PromptTable {
    return this.#prompts;
  }

  get resources(): ResourceRoutes {
    return this.#resources;
  }

  rebuild(): void {
    const records = this.records();
    const before = { prompts: this.#prompts.signature, resources: this.#resources.signature };
    this.#prompts = buildPromptRoutes(records);
    this.#resources = buildResourceRoutes(records);
    if (this.#prompts.signature !== before.prompts) this.changed('prompts');
    if (this.#resources.signature !== before.resources) this.changed('resources');
  }
}
