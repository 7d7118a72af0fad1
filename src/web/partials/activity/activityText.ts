import type { TFunction } from "i18next";
import type { ActivityChange, ActivityType } from "../../../common/api/activity.ts";
import type { Context } from "../../../common/api/context.ts";

type MembershipChange = Extract<ActivityChange, `membership${string}`>;
type OtherChange = Exclude<ActivityChange, MembershipChange>;
type Membership = "Added" | "Removed" | "Changed" | "Activated" | "Disabled";

const membershipChanges: Record<MembershipChange, Membership> = {
  membershipAdded: "Added",
  membershipRemoved: "Removed",
  membershipChanged: "Changed",
  membershipActivated: "Activated",
  membershipDisabled: "Disabled",
};

function isMembershipChange(change: ActivityChange): change is MembershipChange {
  return Object.hasOwn(membershipChanges, change);
}

/**
 * A change in words (reference §8): a membership change of an organization is about its applications,
 * of an identity about its organizations.
 */
export function changeText(t: TFunction, type: ActivityType, change: ActivityChange): string {
  if (!isMembershipChange(change)) return t(`activity.changes.${change satisfies OtherChange}`);
  const subject =
    type === "organizationCreate" || type === "organizationUpdate" ? "applications" : "organizations";
  return t(`activity.changes.${subject}${membershipChanges[change]}`);
}

export function typeText(t: TFunction, type: ActivityType): string {
  return t(`activity.types.${type}`);
}

const builtInProviders = ["password", "code", "passkey"] as const;

function isBuiltInProvider(provider: string): provider is (typeof builtInProviders)[number] {
  return (builtInProviders as readonly string[]).includes(provider);
}

/** A sign-in method: Vrata's own in words, a third-party provider by its configured name. */
export function providerText(t: TFunction, context: Context, provider: string): string {
  if (isBuiltInProvider(provider)) return t(`activity.providers.${provider}`);
  return context.providers.find(({ key }) => key === provider)?.name ?? provider;
}
