import { describe, expect, it } from "vitest";
import type { Identity } from "../../../common/api/identity.ts";
import { groupIdentities } from "./identityGroups.ts";

const identity = (id: string, extra: Partial<Identity>): Identity => ({
  id,
  version: 1,
  canUpdate: true,
  isCurrent: false,
  ...extra,
});

describe("identity groups", () => {
  it("groups by membership and block, in the order of the step, without empty groups", () => {
    const groups = groupIdentities([
      identity("other", { membership: null, blocked: false }),
      identity("blocked", { membership: { status: "active", usedWithApp: true }, blocked: true }),
      identity("used", { membership: { status: "active", usedWithApp: true }, blocked: false }),
      identity("organization", { membership: { status: "active", usedWithApp: false } }),
      identity("disabled", { membership: { status: "disabled", usedWithApp: true } }),
      identity("noMembershipField", {}),
      identity("onlyUser", { membership: null, canUpdate: false }),
    ]);
    expect(
      groups.map(({ key, identities, selectable }) => [key, identities.map(({ id }) => id), selectable]),
    ).toEqual([
      ["previouslyUsed", ["used"], true],
      ["usedWithOrganization", ["organization"], true],
      ["otherAvailable", ["other", "noMembershipField"], true],
      ["disabled", ["disabled"], false],
      ["blocked", ["blocked"], false],
    ]);
    expect(groupIdentities([])).toEqual([]);
  });

  it("puts the identity last chosen for the app first", () => {
    const used = { status: "active", usedWithApp: true } as const;
    const [group] = groupIdentities([
      identity("personal", { membership: used }),
      identity("work", { membership: { ...used, chosenForApp: true } }),
    ]);
    expect(group?.identities.map(({ id }) => id)).toEqual(["work", "personal"]);
  });

  it("calls identities other ones only when identities used here are listed above them", () => {
    const alone = groupIdentities([identity("new", { membership: null })]);
    expect(alone.map(({ heading }) => heading)).toEqual(["available"]);
    const belowUsed = groupIdentities([
      identity("new", { membership: null }),
      identity("used", { membership: { status: "active", usedWithApp: true } }),
    ]);
    expect(belowUsed.map(({ heading }) => heading)).toEqual(["previouslyUsed", "otherAvailable"]);
  });
});
