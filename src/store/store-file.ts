// The middle of the store's lowdb stack: db.json text to StoreData, migrated, validated, recovered.
import type { SyncAdapter } from 'lowdb';
import { HubError } from '../core/errors.js';
import type { AtomicTextFile } from './atomic-text-file.js';
import { readIfExists } from './lock/file.js';
import { decodeStore, type Decoded } from './recover.js';
import { STORE_VERSION, StoreDataSchema, type StoreData } from './schema.js';

export type Corrupt = Extract<Decoded, { kind: 'corrupt' }>;

// The middle of the store's lowdb stack, what lowdb's DataFile is to its TextFile: db.json's text
// ⇄ StoreData, parsed, migrated and validated by the zod schema on the way in (a damaged file is
// recovered record by record, with the records it lost taken from db.json.bak), validated and
// stringified on the way out. What to do about a damaged file (keep it aside, log, rewrite) is
// the store's decision under its lock (store.ts): read() hands the recovery over in `damaged`.
export class StoreFile implements SyncAdapter<StoreData> {
  readonly #text: AtomicTextFile;
  readonly #db: string;
  readonly #backup: string;
  // The text this adapter last wrote (validated before writing): when the file still holds
  // exactly that, it is only parsed, not validated again. Text is compared, not stat: inodes
  // and coarse mtimes are reused.
  #written: string | undefined;
  // The text last read or written: a write that would not change it is skipped.
  #onDisk: string | null | undefined;
  /** The recovery of the last read when db.json was damaged; undefined when it read as it is. */
  damaged: Corrupt | undefined;

  constructor(text: AtomicTextFile, db: string, backup: string) {
    this.#text = text;
    this.#db = db;
    this.#backup = backup;
  }

  // The last good copy, for the records a damaged db.json lost.
  readonly #readBackup = (): StoreData | undefined => {
    const decoded = decodeStore(readIfExists(this.#backup) ?? null);
    return decoded.kind === 'ok' ? decoded.data : undefined;
  };

  /** Never null (a missing or empty file is the empty store); a newer hub's file is refused. */
  read(): StoreData {
    const text = this.#text.read();
    this.#onDisk = text;
    this.damaged = undefined;
    if (text !== null && text === this.#written) return JSON.parse(text) as StoreData;
    const decoded = decodeStore(text, this.#readBackup);
    if (decoded.kind === 'newer') {
      throw new HubError(
        'STORE_CORRUPT',
        `${this.#db} was written by a newer hub (store version ${decoded.version}; this hub reads up to ${STORE_VERSION}), so it was left untouched: upgrade hub to use it.`,
      );
    }
    if (decoded.kind === 'corrupt') this.damaged = decoded;
    return decoded.data;
  }

  // A change that breaks the schema is refused here, so one bad update cannot make the next
  // reader move the whole file aside. Nothing is written when the text on disk is the same.
  write(data: StoreData): void {
    const checked = StoreDataSchema.safeParse(data);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new HubError(
        'INTERNAL',
        `A store update would have written an invalid ${this.#db} (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}), so it was not saved; this is a bug in hub, please report it.`,
      );
    }
    const text = `${JSON.stringify(checked.data, null, 2)}\n`;
    if (text !== this.#onDisk) {
      // A damaged file on disk is kept aside by the store, never made the backup.
      this.#text.keepBackup = this.damaged === undefined;
      try {
        this.#text.write(text);
      } finally {
        this.#text.keepBackup = true;
      }
    }
    this.#written = text;
    this.#onDisk = text;
    this.damaged = undefined;
  }
}
