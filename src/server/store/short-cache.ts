import { clientCacheMs } from "../../common/limits.ts";
import type { Database } from "./database.ts";

/**
 * Answers read again and again by many requests (a client, an app's name), kept per database for
 * clientCacheMs: a change through another server sharing the database shows within that time.
 * Unknown keys are remembered too, so `maxEntries` bounds what arbitrary keys can add.
 */
export class ShortCache<T> {
  readonly #byDatabase = new WeakMap<Database, Map<string, { value: T; until: number }>>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  async get(db: Database, key: string, load: () => Promise<T>): Promise<T> {
    let entries = this.#byDatabase.get(db);
    if (!entries) this.#byDatabase.set(db, (entries = new Map<string, { value: T; until: number }>()));
    const now = Date.now();
    const cached = entries.get(key);
    if (cached && cached.until > now) return cached.value;
    const value = await load();
    if (entries.size >= this.#maxEntries) entries.clear();
    entries.set(key, { value, until: now + clientCacheMs });
    return value;
  }

  /** Forgets every entry of the database: this server just changed what they were read from. */
  forget(db: Database): void {
    this.#byDatabase.get(db)?.clear();
  }
}
