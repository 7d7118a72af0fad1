import { interactionPolicy, type KoaContextWithOIDC } from "oidc-provider";
import type { AppAccount } from "./accounts.ts";

const { Check, Prompt, base } = interactionPolicy;

/** The subject the client's app knows the signed-in person by, when they chose an identity for it. */
const appSubject = (ctx: KoaContextWithOIDC) => (ctx.oidc.account as AppAccount | undefined)?.membershipId;

/**
 * The engine's prompts, with the single sign-on session belonging to the person (design.md §5):
 * - a signed-in person who has not chosen an identity for this app is asked to choose one (the
 *   `select_account` prompt, `account_selection_required` for `prompt=none`), as is one who asks for
 *   `prompt=select_account`;
 * - an `id_token_hint` or a requested `sub` is compared with the identity the app knows, which is what
 *   the app was given; the engine would compare it with the account.
 */
export function interactionPolicyForPeople(): interactionPolicy.Prompt[] {
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
  const selectAccount = new Prompt(
    { name: "select_account", requestable: true },
    new Check(
      "identity_not_chosen",
      "the person has not chosen an identity for this app",
      (ctx) => ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined,
    ),
  );
  policy.add(selectAccount, 1);
  return policy;
}
