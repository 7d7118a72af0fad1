import type { Migration, MigrationProvider } from "kysely/migration";
import * as initial from "./0001-initial.ts";
import * as accountsFlows from "./0002-accounts-flows.ts";
import * as templates from "./0003-templates.ts";
import * as partialIndexes from "./0004-partial-indexes.ts";
import * as keyedArtifactIds from "./0005-keyed-artifact-ids.ts";
import * as invitations from "./0006-invitations.ts";
import * as passkeyChallenges from "./0007-passkey-challenges.ts";
import * as blocks from "./0008-blocks.ts";
import * as identityShares from "./0009-identity-shares.ts";
import * as organizationAdmin from "./0010-organization-admin.ts";
import * as upstreamRequests from "./0011-upstream-requests.ts";
import * as signingKeyRotation from "./0012-signing-key-rotation.ts";
import * as activityCategories from "./0013-activity-categories.ts";
import * as identitySearchWords from "./0014-identity-search-words.ts";
import * as samlAssertions from "./0015-saml-assertions.ts";
import * as identityAddressShares from "./0016-identity-address-shares.ts";
import * as applicationChoices from "./0017-application-choices.ts";
import * as addressInvitations from "./0018-address-invitations.ts";
import * as secondFactors from "./0019-second-factors.ts";
import * as emailVerifications from "./0020-email-verifications.ts";
import * as sessionDevices from "./0021-session-devices.ts";
import * as accountDeletion from "./0022-account-deletion.ts";
import * as memberSearchWords from "./0023-member-search-words.ts";

/** Forward-only migrations, applied in the order of their names. Never edit one that has shipped. */
export const migrations: MigrationProvider = {
  getMigrations: () =>
    Promise.resolve<Record<string, Migration>>({
      "0001-initial": initial,
      "0002-accounts-flows": accountsFlows,
      "0003-templates": templates,
      "0004-partial-indexes": partialIndexes,
      "0005-keyed-artifact-ids": keyedArtifactIds,
      "0006-invitations": invitations,
      "0007-passkey-challenges": passkeyChallenges,
      "0008-blocks": blocks,
      "0009-identity-shares": identityShares,
      "0010-organization-admin": organizationAdmin,
      "0011-upstream-requests": upstreamRequests,
      "0012-signing-key-rotation": signingKeyRotation,
      "0013-activity-categories": activityCategories,
      "0014-identity-search-words": identitySearchWords,
      "0015-saml-assertions": samlAssertions,
      "0016-identity-address-shares": identityAddressShares,
      "0017-application-choices": applicationChoices,
      "0018-address-invitations": addressInvitations,
      "0019-second-factors": secondFactors,
      "0020-email-verifications": emailVerifications,
      "0021-session-devices": sessionDevices,
      "0022-account-deletion": accountDeletion,
      "0023-member-search-words": memberSearchWords,
    }),
};
