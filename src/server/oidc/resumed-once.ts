import { errors, type Adapter } from "oidc-provider";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import type { Database } from "../store/database.ts";
import { takeOidcModel } from "../store/oidc-models.ts";

/**
 * An interaction is resumed once. The engine reads it at its resume address, then destroys it and
 * goes on to issue a code; a removal that finds nothing to remove is a resume that another request
 * made meanwhile, and is refused as one of an interaction that is gone (the engine's own answer to
 * a second resume). Of resumes sent at the same moment, to one instance or several, one gives a code.
 */
class InteractionResumedOnce implements Adapter {
  readonly #adapter: Adapter;
  readonly #db: Database;
  readonly #tokenIds: InstanceSecrets["tokenIds"];

  constructor(adapter: Adapter, db: Database, tokenIds: InstanceSecrets["tokenIds"]) {
    this.#adapter = adapter;
    this.#db = db;
    this.#tokenIds = tokenIds;
  }

  upsert: Adapter["upsert"] = (id, payload, expiresIn) => this.#adapter.upsert(id, payload, expiresIn);
  find: Adapter["find"] = (id) => this.#adapter.find(id);
  findByUid: Adapter["findByUid"] = (uid) => this.#adapter.findByUid(uid);
  findByUserCode: Adapter["findByUserCode"] = (userCode) => this.#adapter.findByUserCode(userCode);
  consume: Adapter["consume"] = (id) => this.#adapter.consume(id);
  revokeByGrantId: Adapter["revokeByGrantId"] = (grantId) => this.#adapter.revokeByGrantId(grantId);

  async destroy(id: string): Promise<void> {
    if ((await takeOidcModel(this.#db, "Interaction", this.#tokenIds(id))) === undefined)
      throw new errors.SessionNotFound("interaction session not found");
  }
}

/** The store's adapters, with interactions that can be resumed only once. */
export function withInteractionsResumedOnce(
  factory: (model: string) => Adapter,
  db: Database,
  tokenIds: InstanceSecrets["tokenIds"],
): (model: string) => Adapter {
  return (model) => {
    const adapter = factory(model);
    return model === "Interaction" ? new InteractionResumedOnce(adapter, db, tokenIds) : adapter;
  };
}
