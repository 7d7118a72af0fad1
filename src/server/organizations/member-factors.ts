import { secondFactorSetUpMethods } from "../../common/api/second-factor.ts";
import type { MemberSecondFactor } from "../../common/api/organization.ts";
import { passkeyProvider } from "../accounts/passkeys.ts";
import { totpProvider } from "../accounts/totp.ts";
import type { Database } from "../store/database.ts";
import { controllingAccounts } from "../store/identity-controllers.ts";

// Which second factors an organization's members have, as its admins see them before asking for one.

const providerOf: Record<MemberSecondFactor, string> = { totp: totpProvider, passkey: passkeyProvider };

/**
 * The second factors each identity has for sure: those every account controlling it has, since any
 * of them signs in as the identity. An identity no account controls has none. Nothing else about the
 * accounts leaves this function: not how many there are, nor what else they reach.
 */
export async function secondFactorsOfIdentities(
  db: Database,
  identityIds: readonly string[],
): Promise<Map<string, MemberSecondFactor[]>> {
  const rows = await controllingAccounts(db, identityIds, Object.values(providerOf));
  const accounts = new Map<string, Set<string>>();
  const holders = new Map<string, Set<string>>();
  for (const { identityId, accountId, provider } of rows) {
    accounts.set(identityId, (accounts.get(identityId) ?? new Set()).add(accountId));
    if (provider !== null) {
      const key = `${identityId} ${provider}`;
      holders.set(key, (holders.get(key) ?? new Set()).add(accountId));
    }
  }
  const factors = new Map<string, MemberSecondFactor[]>();
  for (const [identityId, controllers] of accounts) {
    factors.set(
      identityId,
      secondFactorSetUpMethods.filter(
        (factor) => holders.get(`${identityId} ${providerOf[factor]}`)?.size === controllers.size,
      ),
    );
  }
  return factors;
}
