import type { Identity } from "../../../common/api/identity.ts";

export type IdentityGroupKey =
  "previouslyUsed" | "usedWithOrganization" | "otherAvailable" | "disabled" | "blocked";

export interface IdentityGroup {
  readonly key: IdentityGroupKey;
  /** What its heading calls it: "other" identities only when identities used here are listed above. */
  readonly heading: IdentityGroupKey | "available";
  readonly identities: Identity[];
  /** Whether its identities can be chosen for the flow. */
  readonly selectable: boolean;
}

/** Null for identities the person may use but not join to another organization (only admins may). */
function groupOf({ blocked, membership, canUpdate }: Identity): IdentityGroupKey | null {
  if (blocked) return "blocked";
  if (!membership) return canUpdate ? "otherAvailable" : null;
  if (membership.status === "disabled") return "disabled";
  return membership.usedWithApp ? "previouslyUsed" : "usedWithOrganization";
}

const order: IdentityGroupKey[] = [
  "previouslyUsed",
  "usedWithOrganization",
  "otherAvailable",
  "disabled",
  "blocked",
];
const selectable = new Set<IdentityGroupKey>(["previouslyUsed", "usedWithOrganization", "otherAvailable"]);

/** The identity last chosen for the app comes first: most people continue with it. */
const chosenFirst = (a: Identity, b: Identity) =>
  Number(b.membership?.chosenForApp === true) - Number(a.membership?.chosenForApp === true);

/** The identity step's groups (reference §7.6), in order, without empty ones. */
export function groupIdentities(identities: Identity[]): IdentityGroup[] {
  const groups = order
    .map((key) => ({
      key,
      identities: identities.filter((identity) => groupOf(identity) === key).sort(chosenFirst),
      selectable: selectable.has(key),
    }))
    .filter((group) => group.identities.length > 0);
  return groups.map((group, index) => ({
    ...group,
    heading: group.key === "otherAvailable" && index === 0 ? "available" : group.key,
  }));
}
