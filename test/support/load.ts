import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { routes } from "../../src/common/routes.ts";

// Load as many browsers make it: clients that each start a sign-in, one after the other, for as long
// as a fault test needs, and a tally of what they were answered.

/** What the load saw: each answer's status, and requests that got no answer at all. */
export class Tally {
  readonly statuses = new Map<number, number>();
  noAnswer = 0;
  /** Successes in a row since the last request that did not succeed. */
  streak = 0;

  add(status: number | undefined, succeeded: boolean) {
    if (status === undefined) this.noAnswer++;
    else this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.streak = succeeded ? this.streak + 1 : 0;
  }

  count(status: number) {
    return this.statuses.get(status) ?? 0;
  }

  get total() {
    return [...this.statuses.values()].reduce((sum, count) => sum + count, this.noAnswer);
  }

  /** Statuses other than a success and the outage's 503. */
  get unexpected() {
    return [...this.statuses.entries()].filter(([status]) => status !== 303 && status !== 503);
  }

  toString() {
    const parts = [...this.statuses.entries()].map(([status, count]) => `${count} × ${status}`);
    return `${this.total} requests: ${parts.join(", ")}, ${this.noAnswer} without an answer`;
  }
}

/**
 * Requests from `concurrency` clients at once until stopped: each starts a sign-in at the console's
 * authorization endpoint, which writes the flow to the store and answers 303.
 */
export function startLoad(authorizeUrl: string, concurrency: number) {
  const tally = new Tally();
  let running = true;
  const client = async () => {
    while (running) {
      let status: number | undefined;
      try {
        const response = await fetch(authorizeUrl, { redirect: "manual" });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = undefined;
      }
      tally.add(status, status === 303);
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return {
    tally,
    /** Resolves once `count` requests in a row have succeeded. */
    async succeeding(count: number) {
      while (tally.streak < count) await sleep(50);
    },
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

/**
 * The console's authorization endpoint, with everything a sign-in needs: each request writes a flow to
 * the store and is answered 303.
 */
export async function consoleAuthorizeUrl(origin: string): Promise<string> {
  const context = (await (await fetch(`${origin}/context.json`)).json()) as {
    clientId: string;
    redirectUri: string;
  };
  const query = new URLSearchParams({
    client_id: context.clientId,
    redirect_uri: context.redirectUri,
    response_type: "code",
    scope: "openid",
    code_challenge: randomBytes(32).toString("base64url"),
    code_challenge_method: "S256",
    state: "load",
    nonce: "load",
  });
  return `${origin}${routes.OIDCAuthorize.path}?${query.toString()}`;
}
