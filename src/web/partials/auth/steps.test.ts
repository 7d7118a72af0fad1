import type { TFunction } from "../../i18n/index.ts";
import { describe, expect, it } from "vitest";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { mistakeMessage, stepFor } from "./steps.ts";

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
