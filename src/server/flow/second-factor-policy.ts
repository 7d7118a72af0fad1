import type { AcrValue, PendingSecondFactor } from "../../common/api/second-factor.ts";
import { factorsIn, pendingSecondFactor } from "../accounts/second-factors.ts";
import type { StoredCredential } from "../store/accounts.ts";
import { signInPolicyOf } from "../organizations/applications.ts";
import type { FlowDeps } from "./deps.ts";
import type { Flow } from "./flows.ts";

// What a sign-in must prove besides its first factor: the organization's policy, the level the app
// asked for, and the second factors the account has set up (accounts/second-factors.ts decides).

export { signInPolicyOf };

/** The second factor the flow waits for once the methods in `amr` are proven, if any. */
export async function secondFactorAfter(
  deps: Pick<FlowDeps, "db">,
  flow: Pick<Flow, "organizationId"> & { state: { requestedAcr?: AcrValue | undefined } },
  amr: readonly string[],
  /** The account's credentials (accountStanding). */
  credentials: readonly StoredCredential[],
): Promise<PendingSecondFactor | undefined> {
  const policy = await signInPolicyOf(deps.db, flow.organizationId);
  return pendingSecondFactor({
    amr,
    policy,
    requested: flow.state.requestedAcr,
    factors: factorsIn(credentials),
  });
}
