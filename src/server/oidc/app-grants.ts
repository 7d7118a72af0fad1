import type { Grant, KoaContextWithOIDC } from "oidc-provider";
import type { Database } from "../store/database.ts";
import { insertGrantAccount } from "../store/flows.ts";
import type { AppAccount } from "./accounts.ts";
import { isAccountClient } from "./account-client.ts";

/** Prompts that ask the person again even when they agreed before. */
const askingPrompts = ["login", "select_account", "consent"];

/**
 * The grant that answers an authorization request: the one this session holds for the client, else a
 * new one when the person already agreed to give this app what it asks with the identity they chose
 * for it (with another client of the same app, or in an earlier session). Choosing the identity for an
 * app is the person's consent (spec §4.8), so they are not asked twice for the same thing.
 */
export function grantAgreedBefore(db: Database) {
  return async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
    const { client, session, result, provider } = ctx.oidc;
    const account = ctx.oidc.account as AppAccount | undefined;
    if (!client || !account || !session) return undefined;
    const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    const held = grantId ? await provider.Grant.find(grantId) : undefined;
    // A grant an earlier version made for the membership is left to lapse: the account's replaces it.
    if (held && held.accountId === account.accountId) return held;

    const asked = [...ctx.oidc.requestParamOIDCScopes];
    if (askingPrompts.some((prompt) => ctx.oidc.prompts.has(prompt))) return undefined;
    // The account page is the person's own: signed in, they have agreed to it (it gets no identity).
    if (await isAccountClient(db, client.clientId)) {
      const grant = new provider.Grant({ accountId: account.accountId, clientId: client.clientId });
      if (asked.length > 0) grant.addOIDCScope(asked.join(" "));
      await grant.save();
      return grant;
    }
    const agreed = new Set(account.agreedScopes ?? []);
    if (asked.length === 0 || !asked.every((scope) => agreed.has(scope))) return undefined;
    const grant = new provider.Grant({ accountId: account.accountId, clientId: client.clientId });
    grant.addOIDCScope(asked.join(" "));
    const id = await grant.save();
    const { identityId } = account;
    await insertGrantAccount(
      db,
      { grantId: id, accountId: account.accountId, identityId, sessionId: null },
      Date.now(),
    );
    return grant;
  };
}
