import type { FastifyBaseLogger } from "fastify";
import type Provider from "oidc-provider";
import { recordActivity } from "../activity/activity.ts";
import type { Database } from "../store/database.ts";
import type { Client } from "oidc-provider";
import { findGrantSubject } from "../store/token-subjects.ts";
import { appSubjectFor } from "./accounts.ts";
import { ownerOf } from "./client-extras.ts";

// Back-channel logout (OpenID Connect Back-Channel Logout 1.0): an app that registered a
// `backchannel_logout_uri` gets a signed logout token whenever a single sign-on session it was part
// of ends: RP-initiated logout (the engine sends those), signing out of Vrata, another person signing
// in in the same browser, or a block. An app that cannot be reached is tried again a few times; if it
// never answers, the organization's activity says so, since that app may still think the person is
// signed in.

/** What a single sign-on session says of the person and the apps it signed in to. */
export interface EndedSession {
  /** The account (earlier versions: the organization-scoped identity) the session is for. */
  accountId?: string | undefined;
  authorizations?: Record<string, { sid?: string | undefined; grantId?: string | undefined }> | undefined;
}

/** The engine's own sender of logout tokens, which its client type does not declare. */
interface LogoutSender {
  backchannelLogoutUri?: string | undefined;
  backchannelLogout(sub: string, sid: string): Promise<void>;
}

interface Delivery {
  clientId: string;
  accountId: string;
  sid: string;
  /** The grant of the client's part of the session: the identity the app knows the person by. */
  grantId?: string | undefined;
}

export class BackchannelLogouts {
  readonly #engine: { readonly provider: Provider };
  readonly #db: Database;
  readonly #log: FastifyBaseLogger;
  readonly #delaysMs: readonly number[];
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(options: {
    engine: { readonly provider: Provider };
    db: Database;
    log: FastifyBaseLogger;
    /** How long to wait before each further attempt: an app that is down for a moment still hears of it. */
    delaysMs: readonly number[];
  }) {
    this.#engine = options.engine;
    this.#db = options.db;
    this.#log = options.log;
    this.#delaysMs = options.delaysMs;
  }

  /** Sends a logout token to every app of the ended session that asked for them. */
  async announce(session: EndedSession): Promise<void> {
    const { accountId, authorizations = {} } = session;
    if (!accountId) return;
    const deliveries = Object.entries(authorizations).flatMap(([clientId, { sid, grantId }]) =>
      sid ? [{ clientId, accountId, sid, grantId }] : [],
    );
    await Promise.all(deliveries.map((delivery) => this.#attempt(delivery, 0)));
  }

  /** A delivery the engine tried once and failed: it is tried again as Vrata's own are. */
  failedOnce(delivery: Delivery, error: unknown): void {
    this.#failed(delivery, 1, error);
  }

  /** Stops the attempts still waiting (on shutdown). */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async #attempt(delivery: Delivery, attempt: number): Promise<void> {
    // The client is looked up for every attempt: its settings, or the engine's keys, may have changed.
    const found = await this.#engine.provider.Client.find(delivery.clientId).catch(() => undefined);
    const client = found as (typeof found & LogoutSender) | undefined;
    if (!client?.backchannelLogoutUri) return;
    try {
      await client.backchannelLogout(await this.#subjectOf(delivery, client), delivery.sid);
    } catch (error) {
      this.#failed(delivery, attempt + 1, error);
    }
  }

  /** What the app knows the person by: the identity of the session's grant, never the account. */
  async #subjectOf({ accountId, grantId }: Delivery, client: Client): Promise<string> {
    const { organizationId } = ownerOf(client);
    const ofGrant = grantId
      ? await findGrantSubject(this.#db, accountId, organizationId, grantId)
      : undefined;
    return ofGrant?.membershipId ?? appSubjectFor(this.#db)(undefined, accountId, client);
  }

  #failed(delivery: Delivery, attempts: number, error: unknown): void {
    const delay = this.#delaysMs[attempts - 1];
    this.#log.warn(
      { err: error, clientId: delivery.clientId, attempts },
      delay === undefined
        ? "back-channel logout failed, giving up"
        : "back-channel logout failed, will retry",
    );
    if (delay === undefined) {
      void this.#recordFailure(delivery);
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery, attempts);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }

  async #recordFailure(delivery: Delivery): Promise<void> {
    const { clientId } = delivery;
    try {
      const client = await this.#engine.provider.Client.find(clientId);
      if (!client) return;
      const { organizationId, applicationId } = ownerOf(client);
      // What the organization knows the person by, never the account.
      const membershipId = await this.#subjectOf(delivery, client);
      await recordActivity(
        this.#db,
        null,
        {
          type: "backchannelLogoutFailed",
          organizations: [{ id: organizationId }],
          applications: [{ organizationId, applicationId }],
        },
        [{ organizationId, membershipId }],
      );
    } catch (error) {
      this.#log.error({ err: error, clientId }, "a failed back-channel logout could not be recorded");
    }
  }
}
