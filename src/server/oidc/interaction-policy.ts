import { interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import {
  factorsOf,
  pendingSecondFactor,
  requestedAcr,
  type AccountFactors,
} from "../accounts/second-factors.ts";
import { signInPolicyOf } from "../flow/second-factor-policy.ts";
import { deletionDueAt } from "../store/account-deletion.ts";
import { isAccountClient } from "./account-client.ts";
import type { Database } from "../store/database.ts";
import type { AppAccount } from "./accounts.ts";
import { ownerOf } from "./client-extras.ts";

const { Check, Prompt, base } = interactionPolicy;

/** The reason the login prompt gives when the single sign-on session proved less than asked. */
export const stepUpReason = "second_factor_required";

/**
 * Whether the signed-in person's session proved less than the organization's policy or the app's
 * `acr_values` ask for (the flow's rule, accounts/second-factors.ts). The flow then asks for the second
 * factor (step-up). A session made before the person set up an authenticator app stays as good as it
 * was, as other providers keep such sessions: the person who just turned it on is not signed out.
 */
async function belowAskedLevel(db: Database, ctx: KoaContextWithOIDC): Promise<boolean> {
  const { session, client, params } = ctx.oidc;
  if (!session?.accountId || !client) return false;
  const policy = await signInPolicyOf(db, ownerOf(client).organizationId);
  // A session of an earlier version names no methods: one factor.
  const amr = Array.isArray(session.amr) ? session.amr : [];
  const pending = (factors: AccountFactors) =>
    pendingSecondFactor({
      amr,
      policy,
      requested: requestedAcr(params?.acr_values),
      factors,
      ownFactor: false,
    });
  // Without the account's own factor, which factors it has matters only to a session below what is
  // asked: one that is not (most) passes even with every factor there is, and nothing more is read.
  if (pending({ totp: true, passkey: true, recoveryCodes: 1 }) === undefined) return false;
  return pending(await factorsOf(db, session.accountId)) !== undefined;
}

/** The subject the client's app knows the signed-in person by, when they chose an identity for it. */
const appSubject = (ctx: KoaContextWithOIDC) => (ctx.oidc.account as AppAccount | undefined)?.membershipId;

/**
 * The engine's prompts, with the single sign-on session belonging to the person (design.md §5):
 * - a signed-in person who has not chosen an identity for this app is asked to choose one (the
 *   `select_account` prompt, `account_selection_required` for `prompt=none`), as is one who asks for
 *   `prompt=select_account`;
 * - an `id_token_hint` or a requested `sub` is compared with the identity the app knows, which is what
 *   the app was given; the engine would compare it with the account;
 * - a signed-in person whose account is to be deleted is asked too, even with a choice remembered for
 *   the app: the flow first offers to keep the account (flow/deletion-pending.ts), and nothing is
 *   signed in for the app until they do. The account page's own client alone still answers at once,
 *   so that the page shows the pending deletion and keeps the account from there;
 * - a signed-in person whose session is below the level the organization or the app asks for signs
 *   in again (`second_factor_required`), even with a choice remembered for the app: the flow then
 *   continues as the same person and asks for the second factor only (flow/single-sign-on.ts).
 */
export function interactionPolicyForPeople(db: Database): interactionPolicy.Prompt[] {
  const policy = base();
  const login = policy.get("login");
  if (!login) throw new Error("the engine's policy has no login prompt");
  login.checks.remove("id_token_hint");
  login.checks.remove("claims_id_token_sub_value");
  login.checks.add(
    new Check("id_token_hint", "id_token_hint and authenticated subject do not match", (ctx) => {
      const hint = ctx.oidc.entities.IdTokenHint;
      return hint !== undefined && hint.payload.sub !== appSubject(ctx);
    }),
  );
  login.checks.add(
    new Check(
      "claims_id_token_sub_value",
      "requested subject could not be obtained",
      (ctx) => {
        const sub = ctx.oidc.claims.id_token?.sub;
        return sub !== undefined && sub !== null && "value" in sub && sub.value !== appSubject(ctx);
      },
      (ctx) => ({ sub: ctx.oidc.claims.id_token?.sub }),
    ),
  );
  login.checks.add(
    new Check(stepUpReason, "the sign-in is below the level asked for", (ctx) => belowAskedLevel(db, ctx)),
  );
  const selectAccount = new Prompt(
    { name: "select_account", requestable: true },
    new Check(
      "identity_not_chosen",
      "the person has not chosen an identity for this app",
      (ctx) => ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined,
    ),
    new Check(
      "account_deletion_pending",
      "the account is to be deleted unless its person keeps it",
      async (ctx) => {
        const accountId = ctx.oidc.session?.accountId;
        if (accountId === undefined || (await isAccountClient(db, ctx.oidc.client?.clientId))) return false;
        // The account found for the request read it with the identity, when through the session's grant.
        const account = ctx.oidc.account as AppAccount | undefined;
        const known = account?.accountId === accountId ? account.deletionDueAt : undefined;
        if (known !== undefined) return known !== null;
        return (await deletionDueAt(db, accountId)) !== undefined;
      },
    ),
  );
  policy.add(selectAccount, 1);
  return policy;
}
