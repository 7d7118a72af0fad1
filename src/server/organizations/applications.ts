import type { AppScope } from "../../common/api/app-scope.ts";
import type { SignInPolicy } from "../../common/api/second-factor.ts";
import type { Database } from "../store/database.ts";
import { ShortCache } from "../store/short-cache.ts";
import { homepageOf } from "./clients.ts";
import { findOrganization } from "./organizations.ts";

export interface ApplicationInfo {
  name: string;
  organizationName: string;
  homepage?: string;
  /** The scopes the app defines for its own API. */
  appScopes: AppScope[];
}

// Every answer of a flow step names the app: a rename shows within the cache's moment.
const cachedApplications = new ShortCache<ApplicationInfo>(10_000);

// Every password, code and passkey step and every single sign-on asks for it: a change of the
// policy through another server applies within the cache's moment, through this one at once.
const cachedPolicies = new ShortCache<SignInPolicy>(10_000);

/** This server just changed an organization: its apps' names, homepages and sign-in policy show at once. */
export const forgetApplications = (db: Database) => {
  cachedApplications.forget(db);
  cachedPolicies.forget(db);
};

/** The organization's sign-in policy; one that is gone or never chose asks for nothing more. */
export const signInPolicyOf = (db: Database, organizationId: string): Promise<SignInPolicy> =>
  cachedPolicies.get(
    db,
    organizationId,
    async () => (await findOrganization(db, organizationId))?.document.signInPolicy ?? "any",
  );

/** What the flow page tells about the app asking for a sign-in, and where its homepage is. */
export const applicationOf = (
  db: Database,
  organizationId: string,
  applicationId: string,
): Promise<ApplicationInfo> =>
  cachedApplications.get(db, `${organizationId}:${applicationId}`, () =>
    readApplication(db, organizationId, applicationId),
  );

async function readApplication(
  db: Database,
  organizationId: string,
  applicationId: string,
): Promise<ApplicationInfo> {
  const organization = await findOrganization(db, organizationId);
  const application = organization?.document.applications.find((candidate) => candidate.id === applicationId);
  const homepage = application && homepageOf(application);
  return {
    name: application?.applicationTemplate.name ?? "",
    organizationName: organization?.document.name ?? "",
    appScopes: application?.applicationTemplate.appScopes ?? [],
    ...(homepage ? { homepage } : {}),
  };
}
