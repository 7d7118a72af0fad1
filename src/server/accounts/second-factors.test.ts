import { describe, expect, it } from "vitest";
import { acrOf, amrOf, pendingSecondFactor, requestedAcr, withSecondFactor } from "./second-factors.ts";

const none = { totp: false, passkey: false, recoveryCodes: 0 };
const withApp = { totp: true, passkey: false, recoveryCodes: 10 };
const withPasskey = { totp: false, passkey: true, recoveryCodes: 0 };

describe("what a sign-in proved", () => {
  it("names each method as RFC 8176 does, a passkey counting as two factors", () => {
    expect(amrOf("password")).toEqual(["pwd"]);
    expect(amrOf("code")).toEqual(["otp"]);
    expect(amrOf("passkey", { synced: true, userVerified: true })).toEqual(["swk", "user", "mfa"]);
    expect(amrOf("passkey", { synced: false, userVerified: true })).toEqual(["hwk", "user", "mfa"]);
    expect(amrOf("passkey", { synced: false, userVerified: false })).toEqual(["hwk"]);
    expect(amrOf("github")).toEqual(["fed"]);
    expect(withSecondFactor(["pwd"], amrOf("totp"))).toEqual(["pwd", "otp", "mfa"]);
    expect(withSecondFactor(["otp"], amrOf("recoveryCode"))).toEqual(["otp", "mfa"]);
  });

  it("reaches aal1 with one factor, aal2 with two and phr with a passkey", () => {
    expect(acrOf(["pwd"])).toBe("aal1");
    expect(acrOf(["fed"])).toBe("aal1");
    expect(acrOf(["pwd", "otp", "mfa"])).toBe("aal2");
    expect(acrOf(["pwd", "hwk", "user", "mfa"])).toBe("phr");
    expect(acrOf(["hwk"])).toBe("aal1");
    expect(acrOf(["pwd", "hwk", "mfa"])).toBe("phr");
  });

  it("takes the first level it knows from acr_values, and ignores the rest", () => {
    expect(requestedAcr("urn:other aal2 phr")).toBe("aal2");
    expect(requestedAcr("urn:other")).toBeUndefined();
    expect(requestedAcr(undefined)).toBeUndefined();
    expect(requestedAcr(["aal2"])).toBeUndefined();
  });
});

describe("when a flow asks for a second factor", () => {
  it("asks nobody who proved enough", () => {
    expect(pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: undefined, factors: none })).toBe(
      undefined,
    );
    const passkey = amrOf("passkey", { synced: true, userVerified: true });
    for (const policy of ["any", "secondFactor", "passkey"] as const)
      expect(pendingSecondFactor({ amr: passkey, policy, requested: "phr", factors: withApp })).toBe(
        undefined,
      );
  });

  it("asks a person who set up an authenticator app, from what the account has", () => {
    expect(
      pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: undefined, factors: withApp }),
    ).toEqual({
      need: "secondFactor",
      reason: "account",
      methods: ["totp", "recoveryCode"],
    });
  });

  it("keeps a sign-in made before the person set up an authenticator app, where nothing else asks more", () => {
    const rule = {
      amr: ["pwd"],
      policy: "any",
      requested: undefined,
      factors: withApp,
      ownFactor: false,
    } as const;
    expect(pendingSecondFactor(rule)).toBe(undefined);
    expect(pendingSecondFactor({ ...rule, requested: "aal2" })).toEqual({
      need: "secondFactor",
      reason: "app",
      methods: ["totp", "recoveryCode"],
    });
  });

  it("does not ask for a passkey a person only signs in with, unless the organization or app asks", () => {
    expect(
      pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: undefined, factors: withPasskey }),
    ).toBe(undefined);
    expect(
      pendingSecondFactor({
        amr: ["pwd"],
        policy: "secondFactor",
        requested: undefined,
        factors: withPasskey,
      }),
    ).toEqual({ need: "secondFactor", reason: "organization", methods: ["passkey"] });
    expect(
      pendingSecondFactor({ amr: ["otp"], policy: "any", requested: "aal2", factors: withPasskey }),
    ).toEqual({
      need: "secondFactor",
      reason: "app",
      methods: ["passkey"],
    });
  });

  it("has nobody set one up because an app asked: the app gets the level the account can reach", () => {
    expect(pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: "aal2", factors: none })).toBe(
      undefined,
    );
    expect(pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: "phr", factors: withApp })).toEqual({
      need: "secondFactor",
      reason: "account",
      methods: ["totp", "recoveryCode"],
    });
    expect(
      pendingSecondFactor({ amr: ["pwd"], policy: "secondFactor", requested: "phr", factors: none }),
    ).toEqual({ need: "secondFactor", reason: "organization", methods: [], setUp: ["totp", "passkey"] });
  });

  it("has a person without a second factor set one up, only a passkey when a passkey is required", () => {
    expect(
      pendingSecondFactor({ amr: ["fed"], policy: "secondFactor", requested: undefined, factors: none }),
    ).toEqual({ need: "secondFactor", reason: "organization", methods: [], setUp: ["totp", "passkey"] });
    expect(
      pendingSecondFactor({
        amr: ["pwd", "otp", "mfa"],
        policy: "passkey",
        requested: undefined,
        factors: withApp,
      }),
    ).toEqual({ need: "passkey", reason: "organization", methods: [], setUp: ["passkey"] });
    expect(
      pendingSecondFactor({ amr: ["pwd"], policy: "any", requested: "phr", factors: withPasskey }),
    ).toEqual({
      need: "passkey",
      reason: "app",
      methods: ["passkey"],
    });
  });
});
