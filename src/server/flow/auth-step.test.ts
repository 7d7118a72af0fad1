import { randomBytes } from "node:crypto";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxFlowAttempts } from "../../common/limits.ts";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { TooManyRequestsError } from "../http/errors.ts";
import { deriveInstanceSecrets } from "../secrets/instance-secrets.ts";
import { reserveGuess } from "./auth-step.ts";
import type { FlowDeps } from "./deps.ts";
import type { StepRequest } from "./flows.ts";
import { newFlowState } from "./state.ts";
import { StepEffects } from "./step-effects.ts";

describe.each(storeEngines)("a reserved guess on $name", ({ open }) => {
  let store: TestStore;
  let deps: FlowDeps;
  beforeAll(async () => {
    store = await open();
    deps = { db: store.db, secrets: deriveInstanceSecrets(randomBytes(32)) } as FlowDeps;
  });
  afterAll(() => store.dispose());

  const stepOf = (flowId: string): StepRequest => ({
    flow: {
      id: flowId,
      clientId: "",
      organizationId: "",
      applicationId: "",
      version: 1,
      expiresAt: Date.now() + 60_000,
      state: newFlowState(),
      storedState: "",
    },
    effects: new StepEffects(),
    answer: {},
    log: Fastify().log,
    address: "203.0.113.9",
    device: { nonce: "n".repeat(22), tags: [] },
    locale: "en",
  });

  it("costs nothing when the comparison could not run, and counts when it did", async () => {
    const step = stepOf("f".repeat(43));
    for (let busy = 0; busy < 3 * maxFlowAttempts; busy++) {
      const guess = await reserveGuess(deps, step, "password", "account");
      const refused = guess?.compare(() => Promise.reject(new TooManyRequestsError("busy", 1)));
      await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    }
    for (let wrong = 1; wrong <= maxFlowAttempts; wrong++) {
      const guess = await reserveGuess(deps, step, "password", "account");
      expect(await guess?.compare(() => false)).toBe(false);
      expect(guess?.isLastOfFlow).toBe(wrong === maxFlowAttempts);
    }
    expect(await reserveGuess(deps, step, "password", "account")).toBeUndefined();
    expect(step.flow.state.completed).toEqual(["failed"]);
  });
});
