import type { FastifyRequest } from "fastify";
import { preferredLocale } from "../http/locale.ts";
import type { Flow, StepRequest } from "./flows.ts";
import { deviceOf } from "./known-device.ts";
import { StepEffects } from "./step-effects.ts";

/** A request to one of the flow's steps, before the step runs. */
export function newStepRequest(flow: Flow, request: FastifyRequest): StepRequest {
  return {
    flow,
    effects: new StepEffects(),
    answer: {},
    log: request.log,
    address: request.ip,
    device: deviceOf(request),
    locale: flow.state.locale ?? preferredLocale(request.headers["accept-language"]),
  };
}
