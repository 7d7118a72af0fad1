import { interactionPolicy } from "oidc-provider";

const { Check, base } = interactionPolicy;

/**
 * The engine's prompts, with one more reason to ask the person to sign in: the browser's session is
 * for an identity as another organization sees it (or one no longer active there), so this client's
 * organization has no account in it. Single sign-on never carries a person across organizations.
 */
export function interactionPolicyWithOrganizations(): interactionPolicy.Prompt[] {
  const policy = base();
  policy
    .get("login")
    ?.checks.add(
      new Check(
        "session_for_other_organization",
        "End-User authentication is required for this organization",
        (ctx) => ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined,
      ),
    );
  return policy;
}
