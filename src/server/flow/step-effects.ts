import type { FastifyReply } from "fastify";
import type { Database } from "../store/database.ts";

/**
 * What a flow step changes besides the flow's own state: writes stored in the same transaction as
 * that state, and what the browser is told (cookies) once they are. A step that loses a race with
 * another step of the same flow therefore leaves no account, session or cookie behind.
 */
export class StepEffects {
  readonly writes: ((db: Database) => Promise<unknown>)[] = [];
  readonly #replies: ((reply: FastifyReply) => void)[] = [];

  write(write: (db: Database) => Promise<unknown>): void {
    this.writes.push(write);
  }

  onceStored(change: (reply: FastifyReply) => void): void {
    this.#replies.push(change);
  }

  applyTo(reply: FastifyReply): void {
    for (const change of this.#replies) change(reply);
  }
}
