import type { FastifyBaseLogger } from "fastify";
import type { Sealer } from "../secrets/sealing.ts";
import type { Database } from "../store/database.ts";
import type { SigningKeyRow } from "../store/signing-keys.ts";
import { logEvent } from "../operations/events.ts";
import { keyPollMs, maintainSigningKeys, nextKeyChange, type RotationSchedule } from "./key-rotation.ts";
import { keyRoles, openSigningKeys, type OpenedSigningKeys } from "./keys.ts";

export interface KeyWatchOptions {
  db: Database;
  sealer: Sealer;
  schedule: RotationSchedule;
  /** How often the store is read for changes other instances made (tests read it more often). */
  pollMs?: number | undefined;
}

/** What the keys are at a moment: which ones there are and the role of each. */
function stateOf(rows: readonly SigningKeyRow[], now: number): string {
  const roles = keyRoles(rows, now);
  return rows.map((row) => `${row.kid}:${roles.get(row.kid) ?? ""}`).join(",");
}

/**
 * Follows the stored signing keys: at every change, made here or by another instance, the keys are
 * opened again and handed on. Changes are looked for every minute and at each moment one is known to
 * come (an activation, a removal, a scheduled rotation).
 */
export class SigningKeyWatch {
  readonly #options: KeyWatchOptions;
  #state: string;
  #keys: OpenedSigningKeys;
  /** The keys as last read, and when. */
  #read: { rows: readonly SigningKeyRow[] | undefined; at: number };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;
  #following: { onChange: (keys: OpenedSigningKeys) => Promise<void>; log: FastifyBaseLogger } | undefined;

  private constructor(
    options: KeyWatchOptions,
    read: { rows: SigningKeyRow[]; at: number },
    keys: OpenedSigningKeys,
  ) {
    this.#options = options;
    this.#read = read;
    this.#state = stateOf(read.rows, read.at);
    this.#keys = keys;
  }

  /** Brings the keys up to date and opens them; the watch begins with {@link follow}. */
  static async open(options: KeyWatchOptions): Promise<SigningKeyWatch> {
    const now = Date.now();
    const rows = await maintainSigningKeys(options.db, options.sealer, now, options.schedule);
    const keys = await openSigningKeys(options.db, options.sealer, rows, now);
    return new SigningKeyWatch(options, { rows, at: now }, keys);
  }

  get keys(): OpenedSigningKeys {
    return this.#keys;
  }

  /** From now on, each change of the keys is handed to `onChange`; failures are logged and retried. */
  follow(onChange: (keys: OpenedSigningKeys) => Promise<void>, log: FastifyBaseLogger): void {
    this.#following = { onChange, log };
    this.#schedule();
  }

  /** Reads the keys now (after any reading under way), bringing them up to date first. */
  refresh(): Promise<void> {
    this.#running = this.#running.then(() => this.#check());
    return this.#running;
  }

  /** Stops watching, once a reading under way has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #check(): Promise<void> {
    const following = this.#following;
    if (this.#stopped || !following) return;
    const { db, sealer, schedule } = this.#options;
    const now = Date.now();
    let rows: SigningKeyRow[] | undefined;
    try {
      rows = await maintainSigningKeys(db, sealer, now, schedule);
      const state = stateOf(rows, now);
      if (state !== this.#state) {
        const keys = await openSigningKeys(db, sealer, rows, now);
        await following.onChange(keys);
        this.#keys = keys;
        this.#state = state;
        logEvent(following.log, "signingKeysChanged", {
          signing: keys.signing.map((key) => key.kid),
          verifyOnly: keys.verifyOnly.map((key) => key.kid),
        });
      }
    } catch (error) {
      following.log.warn({ err: error }, "reading the signing keys failed; trying again");
    }
    this.#read = { rows, at: now };
    this.#schedule();
  }

  /** Wakes at the next known change, or after the polling interval if that comes first. */
  #schedule(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    const { rows, at: now } = this.#read;
    const next = rows && nextKeyChange(rows, now, this.#options.schedule);
    const delay = Math.min(this.#options.pollMs ?? keyPollMs, next === undefined ? Infinity : next - now);
    this.#timer = setTimeout(() => void this.refresh(), Math.max(delay, 1));
    this.#timer.unref();
  }
}
