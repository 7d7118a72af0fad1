import type { TFunction } from "../../i18n/index.ts";
import { describe, expect, it } from "vitest";
import type { FlowResponse } from "../../../common/api/flow.ts";
import type { PendingSecondFactor } from "../../../common/api/second-factor.ts";
import { firstFactors, mistakeMessage, stepFor, usedSecondFactor } from "./steps.ts";

const flow = (change: Partial<FlowResponse>): FlowResponse => ({
  completed: [],
  organizationId: "o",
  appId: "a",
  organizationName: "Organization",
  appName: "App",
  ...change,
});

describe("stepFor", () => {
  it("picks the step before the auth step from the methods started", () => {
    expect(stepFor(flow({}))).toBe("start");
    expect(stepFor(flow({ providers: ["password"] }))).toBe("password");
    expect(stepFor(flow({ providers: ["code"] }))).toBe("code");
    // A wrong password or a new e-mail address: a code was sent.
    expect(stepFor(flow({ providers: ["password", "code"] }))).toBe("code");
    expect(stepFor(flow({}), true)).toBe("code");
  });

  it("follows the last completed state", () => {
    expect(stepFor(flow({ completed: ["signup"], providers: ["password"] }))).toBe("identity");
    expect(stepFor(flow({ completed: ["signin", "identity"] }))).toBe("redirect");
    expect(stepFor(flow({ completed: ["signin", "declined"] }))).toBe("redirect");
    expect(stepFor(flow({ completed: ["failed"] }))).toBe("manual");
    expect(stepFor(flow({ completed: ["signin", "identity", "finishReady", "finished"] }))).toBe("manual");
    expect(stepFor(flow({ completed: ["signin", "identity", "finishReady"] }))).toBe("finish");
  });
});

describe("second factors", () => {
  const secondFactor: PendingSecondFactor = { need: "secondFactor", reason: "account", methods: ["totp"] };

  it("asks for a pending second factor before the identity, and shows new recovery codes once", () => {
    expect(stepFor(flow({ providers: ["password"], secondFactor }))).toBe("secondFactor");
    expect(stepFor(flow({ completed: ["signin"], providers: ["password"], secondFactor }))).toBe(
      "secondFactor",
    );
    expect(stepFor(flow({ completed: ["signin"], recoveryCodes: ["abcde-fghjk"] }))).toBe("recoveryCodes");
    // Declining while it waits ends the flow as any decline does.
    expect(stepFor(flow({ completed: ["declined"], secondFactor }))).toBe("redirect");
  });

  it("tells the first factor from the second in the methods a flow lists", () => {
    expect(firstFactors(["password", "totp"])).toEqual(["password"]);
    expect(firstFactors(["password", "code", "recoveryCode"])).toEqual(["password", "code"]);
    expect(firstFactors(["password", "passkey"])).toEqual(["password"]);
    expect(firstFactors(["passkey"])).toEqual(["passkey"]);
    expect(usedSecondFactor(["passkey"])).toBe(false);
    expect(usedSecondFactor(["github", "passkey"])).toBe(true);
    expect(usedSecondFactor(["password", "code"])).toBe(false);
  });
});

describe("mistakeMessage", () => {
  const t = ((key: string) => key) as TFunction;

  it("chooses e-mail or username wording by the @ in what was typed", () => {
    expect(mistakeMessage(t, "shortEmailOrUsername", "a@")).toBe("authFlow.errors.shortEmail");
    expect(mistakeMessage(t, "shortEmailOrUsername", "ab")).toBe("authFlow.errors.shortUsername");
    expect(mistakeMessage(t, "invalidEmailOrUsername", "a b@c")).toBe("errors.invalidEmail");
    expect(mistakeMessage(t, "invalidEmailOrUsername", "a b")).toBe("errors.invalidUsername");
    expect(mistakeMessage(t, "wrongPassword", "ab")).toBe("authFlow.errors.wrongPassword");
  });
});
