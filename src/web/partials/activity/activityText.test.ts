import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { activityChanges, activityTypes } from "../../../common/api/activity.ts";
import type { Context } from "../../../common/api/context.ts";
import en from "../../i18n/en.json" with { type: "json" };
import { changeText, providerText, typeText } from "./activityText.ts";

const t = ((key: string) => key) as TFunction;

/** Whether the English catalog has a text at a dotted key. */
function hasText(key: string): boolean {
  let value: unknown = en;
  for (const part of key.split(".")) value = (value as Record<string, unknown> | undefined)?.[part];
  return typeof value === "string";
}

describe("activity in words", () => {
  it("words a membership change by what the entry is about", () => {
    expect(changeText(t, "identityUpdate", "membershipAdded")).toBe("activity.changes.organizationsAdded");
    expect(changeText(t, "organizationUpdate", "membershipDisabled")).toBe(
      "activity.changes.applicationsDisabled",
    );
    expect(changeText(t, "organizationCreate", "membershipAdded")).toBe("activity.changes.applicationsAdded");
    expect(changeText(t, "identityUpdate", "otherData")).toBe("activity.changes.otherData");
  });

  it("has a text for every type and every change of every type", () => {
    for (const type of activityTypes) {
      expect(hasText(typeText(t, type)), type).toBe(true);
      for (const change of activityChanges) expect(hasText(changeText(t, type, change)), change).toBe(true);
    }
  });

  it("names Vrata's own sign-in methods in words and third-party providers by their name", () => {
    const context = { providers: [{ key: "google", name: "Google", type: "oidc" }] } as Context;
    expect(providerText(t, context, "password")).toBe("activity.providers.password");
    expect(providerText(t, context, "google")).toBe("Google");
    expect(providerText(t, context, "unknown")).toBe("unknown");
  });
});
