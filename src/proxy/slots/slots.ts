// The installed servers' slots by name, shared or per session, kept in step with the store.
import { HubError } from '../../core/errors.js';
import type { ServerWithTools } from '../../store/schema.js';
import { launchKey } from './records.js';
import type { ClientSide } from '../sessions/client-side.js';
import { ServerSlot, type SlotContext } from './server-slot.js';
import { isDisabled } from '../listing/tool-filter.js';

/** The installed servers' slots, by name, kept in step with the store's records; closed once. */
export class Slots {
  #slots = new Map<string, ServerSlot>();
  // Per-session servers (settings.perSession): a slot per (server, session), made on first call.
  #bySession = new Map<string, Map<object, ServerSlot>>();
  #closed = false;

  constructor(private readonly ctx: SlotContext) {}

  /** After close(): no call is forwarded and no server started any more. */
  get closed(): boolean {
    return this.#closed;
  }

  get(name: string): ServerSlot | undefined {
    return this.#slots.get(name);
  }

  /** The slot a session's call goes to: the shared one, or for a per-session server that session's own. */
  forSession(name: string, session: object | undefined): ServerSlot | undefined {
    const shared = this.#slots.get(name);
    if (shared === undefined || session === undefined || shared.record.settings?.perSession !== true) return shared;
    let slots = this.#bySession.get(name);
    if (slots === undefined) this.#bySession.set(name, (slots = new Map()));
    let slot = slots.get(session);
    if (slot === undefined) {
      // Its child is this session's alone: its base variables are this client's (its entry's env).
      const baseEnv = (session as Pick<ClientSide, 'env'>).env;
      const ctx = baseEnv ? { ...this.ctx, child: { ...this.ctx.child, baseEnv } } : this.ctx;
      slots.set(session, (slot = new ServerSlot(shared.record, ctx)));
    }
    return slot;
  }

  /** A session ended: the children of per-session servers it had are stopped. */
  async closeSession(session: object): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const slots of this.#bySession.values()) {
      const slot = slots.get(session);
      if (slot === undefined) continue;
      slots.delete(session);
      stopping.push(slot.stop());
    }
    await Promise.allSettled(stopping);
  }

  // A per-session server's record changed in how it runs, or went: its sessions' children go with it.
  #dropSessions(name: string): Promise<void>[] {
    const slots = this.#bySession.get(name);
    if (slots === undefined) return [];
    this.#bySession.delete(name);
    return [...slots.values()].map(slot => slot.stop());
  }

  has(name: string): boolean {
    return this.#slots.has(name);
  }

  /** The slot of an installed server, or NOT_FOUND naming where to look. */
  require(name: string): ServerSlot {
    const slot = this.#slots.get(name);
    if (!slot)
      throw new HubError(
        'NOT_FOUND',
        `No installed server is named "${name}"; registry.list shows the installed servers.`,
      );
    return slot;
  }

  values(): IterableIterator<ServerSlot> {
    return this.#slots.values();
  }

  /** Every slot's record with the tools it lists: what the routes are built from. */
  records(): ServerWithTools[] {
    return [...this.#slots.values()].map(slot => slot.record);
  }

  /** Slots in install order, as status shows them. */
  sorted(slots: Iterable<ServerSlot> = this.#slots.values()): ServerSlot[] {
    return [...slots].sort((a, b) => a.record.order - b.record.order || a.name.localeCompare(b.name));
  }

  /**
   * Takes the store's records now: a slot for each new one, the removed ones stopped and
   * dropped, a reinstalled one stopped and reset. Resolves when those children have stopped.
   */
  reconcile(records: readonly ServerWithTools[]): Promise<void> {
    const wanted = new Map(records.map(record => [record.name, record]));
    const stopping: Promise<void>[] = [];
    for (const [name, slot] of this.#slots) {
      const record = wanted.get(name);
      if (!record || launchKey(record) !== launchKey(slot.record) || record.settings?.perSession !== true)
        stopping.push(...this.#dropSessions(name));
      if (!record) {
        this.#slots.delete(name);
        stopping.push(slot.stop());
      } else if (launchKey(record) !== launchKey(slot.record)) stopping.push(slot.replace(record));
      else {
        slot.update(record);
        // Disabled in any hub sharing the store: a child running here stops too.
        if (isDisabled(record) && slot.state !== 'stopped') stopping.push(slot.stop());
      }
    }
    for (const record of records)
      if (!this.#slots.has(record.name)) this.#slots.set(record.name, new ServerSlot(record, this.ctx));
    return Promise.all(stopping).then(() => undefined);
  }

  /** Stops every child; nothing is forwarded or started after this. */
  async close(): Promise<void> {
    this.#closed = true;
    const perSession = [...this.#bySession.keys()].flatMap(name => this.#dropSessions(name));
    await Promise.allSettled([...this.#slots.values()].map(slot => slot.stop()).concat(perSession));
  }
}
