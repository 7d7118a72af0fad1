import type { Database } from "../store/database.ts";
import { findSetting } from "../store/instance.ts";

// The account page is a client of its own of the built-in organization (organizations/console.ts):
// what it signs in to is the person's account, not an identity. Its flows end after the sign-in and
// any second factor, with no identity step (flow/finish.ts); its tokens are the account's, with a
// `sub` that is a keyed hash of the account's ID, which no organization ever sees (oidc/accounts.ts);
// and they open the account's own APIs only (access/caller.ts).

/** The account page's client ID of each store: stored on the first start, it never changes. */
const accountClientIds = new WeakMap<Database, Promise<string | undefined>>();

function accountClientIdOf(db: Database): Promise<string | undefined> {
  let known = accountClientIds.get(db);
  if (!known) {
    known = findSetting(db, "accountClientId");
    // Not yet made (a store that is being set up): asked again next time.
    void known.then(
      (id) => id === undefined && accountClientIds.delete(db),
      () => accountClientIds.delete(db),
    );
    accountClientIds.set(db, known);
  }
  return known;
}

/** Whether the client is the account page's own. */
export async function isAccountClient(db: Database, clientId: string | undefined): Promise<boolean> {
  return clientId !== undefined && clientId === (await accountClientIdOf(db));
}
