import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod/mini";
import {
  flowResponseSchema,
  type chooseIdentityBodySchema,
  type codeBodySchema,
  type emailOrUsernameBodySchema,
  type emptyBodySchema,
  type FlowResponse,
  type passkeyCreateBodySchema,
  type passkeyCreateStartBodySchema,
  type passkeyGetBodySchema,
  type passwordBodySchema,
  type providerStartBodySchema,
} from "../../../common/api/flow.ts";
import type {
  recoveryCodeBodySchema,
  totpCodeBodySchema,
  totpSetUpCompleteBodySchema,
} from "../../../common/api/second-factor.ts";
import { createdSchema, identityListSchema, type IdentityFields } from "../../../common/api/identity.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";

/** The body each flow step takes (common/api/flow.ts). */
interface StepBodies {
  AuthFlowPasswordStart: z.infer<typeof emailOrUsernameBodySchema>;
  AuthFlowPasswordComplete: z.infer<typeof passwordBodySchema>;
  AuthFlowCodeStart: z.infer<typeof emailOrUsernameBodySchema>;
  AuthFlowCodeComplete: z.infer<typeof codeBodySchema>;
  AuthFlowPasskeyGetStart: z.infer<typeof emptyBodySchema>;
  AuthFlowPasskeyGetComplete: z.infer<typeof passkeyGetBodySchema>;
  AuthFlowPasskeyCreateStart: z.infer<typeof passkeyCreateStartBodySchema>;
  AuthFlowPasskeyCreateComplete: z.infer<typeof passkeyCreateBodySchema>;
  AuthFlowProviderStart: z.infer<typeof providerStartBodySchema>;
  AuthFlowRestartAuth: z.infer<typeof emptyBodySchema>;
  AuthFlowDecline: z.infer<typeof emptyBodySchema>;
  AuthFlowDeletionCancel: z.infer<typeof emptyBodySchema>;
  AuthFlowChooseIdentity: z.infer<typeof chooseIdentityBodySchema>;
  AuthFlowRedirect: z.infer<typeof emptyBodySchema>;
  AuthFlowTotpComplete: z.infer<typeof totpCodeBodySchema>;
  AuthFlowRecoveryCodeComplete: z.infer<typeof recoveryCodeBodySchema>;
  AuthFlowTotpSetUpStart: z.infer<typeof emptyBodySchema>;
  AuthFlowTotpSetUpComplete: z.infer<typeof totpSetUpCompleteBodySchema>;
}

export type StepRoute = keyof StepBodies;

export function flowQuery(id: string) {
  return queryOptions({
    queryKey: ["authFlow", id],
    queryFn: ({ signal }) => getJson(apiPrefix + pathFor("AuthFlowGet", { id }), flowResponseSchema, signal),
    // The page keeps the state from each step's answer; it loads the flow only once.
    staleTime: "static",
    gcTime: 0,
    retry: false,
  });
}

/** The step call under way, if any: the page sends one at a time. */
let lastStep: Promise<unknown> = Promise.resolve();

/**
 * Sends a step of the flow. Steps go one after another, in the order the page sends them: a passkey
 * request the page starts on its own (autofill) must not race the step the person starts, since the
 * server refuses a step that raced another on the same flow.
 */
export function postStep<R extends StepRoute>(
  route: R,
  id: string,
  body: StepBodies[R],
): Promise<FlowResponse> {
  const call = lastStep.then(() => postJson(apiPrefix + pathFor(route, { id }), body, flowResponseSchema));
  lastStep = call.catch(() => undefined);
  return call;
}

const flowQueryString = (id: string) => `?${new URLSearchParams({ flow: id }).toString()}`;

export function flowIdentitiesQuery(id: string) {
  return queryOptions({
    queryKey: ["authFlow", id, "identities"],
    queryFn: ({ signal }) =>
      getJson(apiPath("IdentityList") + flowQueryString(id), identityListSchema, signal),
  });
}

export async function createIdentity(id: string, fields: IdentityFields): Promise<string> {
  const created = await postJson(apiPath("IdentityCreate") + flowQueryString(id), fields, createdSchema);
  return created.id;
}

const finishKeyPrefix = "vrata.flowFinish.";

/**
 * Reloads the flow's page so the server sends the browser back to the app. Returns false instead when
 * this tab already did so for this flow: the server then answered with the page again, and reloading
 * once more would loop.
 */
export function finishFlow(id: string): boolean {
  try {
    if (sessionStorage.getItem(finishKeyPrefix + id) !== null) return false;
    sessionStorage.setItem(finishKeyPrefix + id, "1");
  } catch {
    // Without storage there is no loop guard; the redirect itself still works.
  }
  window.location.replace(pathFor("AuthFlowGet", { id }));
  return true;
}
