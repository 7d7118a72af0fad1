import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod/mini";
import {
  chooseIdentityBodySchema,
  codeBodySchema,
  emailOrUsernameBodySchema,
  emptyBodySchema,
  passkeyCreateBodySchema,
  passkeyCreateStartBodySchema,
  passkeyGetBodySchema,
  passwordBodySchema,
  providerStartBodySchema,
  signOutBodySchema,
} from "../../common/api/flow.ts";
import {
  recoveryCodeBodySchema,
  totpCodeBodySchema,
  totpSetUpCompleteBodySchema,
} from "../../common/api/second-factor.ts";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { sameOriginJsonWrites } from "../http/same-origin-writes.ts";
import { codeComplete, codeStart, passwordComplete, passwordStart } from "./credentials.ts";
import type { FlowDeps } from "./deps.ts";
import { finishFlow } from "./finish.ts";
import { passkeyCreateComplete, passkeyCreateStart, passkeyGetComplete, passkeyGetStart } from "./passkey.ts";
import { commitStep, FlowStepError, flowResponse, loadFlow, type Flow, type StepRequest } from "./flows.ts";
import { newStepRequest } from "./step-request.ts";
import { lastCompleted } from "./state.ts";
import { reportAuthOutcome } from "./auth-outcome.ts";
import { isUniqueViolation } from "../store/errors.ts";
import { signOut } from "./signout.ts";
import { findFlowOfRequest, requireSessionIfAny } from "../access/session.ts";
import { chooseIdentity, decline, readyToRedirect, restart } from "./outcome.ts";
import { providerStart } from "./provider.ts";
import { continueSignedIn } from "./single-sign-on.ts";
import { keepAccountInFlow } from "./deletion-pending.ts";
import { recoveryCodeComplete, totpComplete, totpSetUpComplete, totpSetUpStart } from "./second-factor.ts";

export interface FlowRoutesOptions {
  deps: FlowDeps;
  renderIndex: (url: string) => Promise<string>;
}

interface StepContext<T> {
  flow: Flow;
  body: T;
  request: FastifyRequest;
  step: StepRequest;
}

/**
 * The step's answer: the flow's state and what the step gives the browser, with the mistake to
 * correct or the limit that refused it.
 */
async function stepAnswer(deps: FlowDeps, reply: FastifyReply, step: StepRequest, error?: FlowStepError) {
  if (error?.retryAfterSeconds !== undefined) {
    reply.status(429).header("retry-after", String(error.retryAfterSeconds));
  } else if (error) reply.status(400);
  return reply.send(await flowResponse(deps.db, step.flow, error?.code, step.answer));
}

/** The auth flow: its page, which also sends the person back to the app, and its JSON steps. */
export const flowPlugin: FastifyPluginAsync<FlowRoutesOptions> = (app, { deps, renderIndex }) => {
  app.addHook("onRequest", sameOriginJsonWrites(deps.issuer));
  const flowOf = (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    return loadFlow(deps.db, deps.provider, id, () => findFlowOfRequest(deps, request, id));
  };

  app.get(routes.AuthFlowGet.path, async (request, reply) => {
    const flow = await flowOf(request).catch(() => undefined);
    if (flow) await continueSignedIn(deps, request, reply, flow);
    if (flow && (await finishFlow(deps, request, reply, flow))) return reply;
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(await renderIndex(request.url));
  });

  app.get(apiPrefix + routes.AuthFlowGet.path, async (request, reply) => {
    const flow = await flowOf(request);
    await requireSessionIfAny(deps, request, flow);
    return reply.header("cache-control", "no-store").send(await flowResponse(deps.db, flow));
  });

  const step = <T>(
    name: RouteName,
    schema: z.ZodMiniType<T>,
    run: (context: StepContext<T>) => Promise<void> | void,
  ) => {
    const runOnce = async (request: FastifyRequest, reply: FastifyReply, body: T) => {
      const flow = await flowOf(request);
      const step = newStepRequest(flow, request);
      let mistake: FlowStepError | undefined;
      const before = lastCompleted(flow.state);
      try {
        await run({ flow, body, request, step });
      } catch (error) {
        if (!(error instanceof FlowStepError)) throw error;
        // What the step changed before the mistake (a code sent, the flow failed) is kept.
        mistake = error;
      }
      await commitStep(deps.db, flow, step.effects);
      reportAuthOutcome(request.log, flow, before);
      step.effects.applyTo(reply);
      return stepAnswer(deps, reply, step, mistake);
    };
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const body = parseBody(schema, request.body);
      reply.header("cache-control", "no-store");
      try {
        return await runOnce(request, reply, body);
      } catch (error) {
        // Someone signed up with the same username or e-mail at the same moment: the step runs again
        // and now finds that account, as if it had existed all along.
        if (!isUniqueViolation(error)) throw error;
        return runOnce(request, reply, body);
      }
    };
    for (const url of [routes[name].path, apiPrefix + routes[name].path]) app.post(url, handler);
  };

  step("AuthFlowPasswordStart", emailOrUsernameBodySchema, ({ step: s, body }) =>
    passwordStart(s, body.emailOrUsername),
  );
  step("AuthFlowPasswordComplete", passwordBodySchema, ({ step: s, body }) =>
    passwordComplete(deps, s, body.password),
  );
  step("AuthFlowCodeStart", emailOrUsernameBodySchema, ({ step: s, body }) =>
    codeStart(deps, s, body.emailOrUsername),
  );
  step("AuthFlowCodeComplete", codeBodySchema, ({ step: s, body }) => codeComplete(deps, s, body.code));
  step("AuthFlowPasskeyGetStart", emptyBodySchema, ({ request, step: s }) =>
    passkeyGetStart(deps, request, s),
  );
  step("AuthFlowPasskeyGetComplete", passkeyGetBodySchema, ({ request, step: s, body }) =>
    passkeyGetComplete(deps, request, s, body.response),
  );
  step("AuthFlowPasskeyCreateStart", passkeyCreateStartBodySchema, ({ request, step: s, body }) =>
    passkeyCreateStart(deps, request, s, body),
  );
  step("AuthFlowPasskeyCreateComplete", passkeyCreateBodySchema, ({ request, step: s, body }) =>
    passkeyCreateComplete(deps, request, s, body.response),
  );
  step("AuthFlowProviderStart", providerStartBodySchema, ({ step: s, body }) =>
    providerStart(deps, s, body.provider),
  );
  step("AuthFlowTotpComplete", totpCodeBodySchema, ({ request, step: s, body }) =>
    totpComplete(deps, request, s, body.code),
  );
  step("AuthFlowRecoveryCodeComplete", recoveryCodeBodySchema, ({ request, step: s, body }) =>
    recoveryCodeComplete(deps, request, s, body.code),
  );
  step("AuthFlowTotpSetUpStart", emptyBodySchema, ({ request, step: s }) => totpSetUpStart(deps, request, s));
  step("AuthFlowTotpSetUpComplete", totpSetUpCompleteBodySchema, ({ request, step: s, body }) =>
    totpSetUpComplete(deps, request, s, body),
  );
  step("AuthFlowRestartAuth", emptyBodySchema, ({ request, step: s }) => restart(deps, request, s));
  step("AuthFlowDecline", emptyBodySchema, ({ request, flow }) => decline(deps, request, flow));
  step("AuthFlowChooseIdentity", chooseIdentityBodySchema, ({ request, flow, body }) =>
    chooseIdentity(deps, request, flow, body.identity.id),
  );
  step("AuthFlowDeletionCancel", emptyBodySchema, ({ request, flow }) =>
    keepAccountInFlow(deps, request, flow),
  );
  step("AuthFlowRedirect", emptyBodySchema, ({ request, flow }) => readyToRedirect(deps, request, flow));

  const signOutHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const { location } = parseBody(signOutBodySchema, request.body);
    return reply.header("cache-control", "no-store").send(await signOut(deps, request, reply, location));
  };
  for (const url of [routes.AuthSignout.path, apiPrefix + routes.AuthSignout.path])
    app.post(url, signOutHandler);
  return Promise.resolve();
};
