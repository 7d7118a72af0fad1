import { startRegistration } from "@simplewebauthn/browser";
import type { FlowResponse } from "../../../common/api/flow.ts";
import { ApiError } from "../../api.ts";
import { postStep } from "./flowApi.ts";
import { CeremonyAbandoned } from "./passkeyCeremony.ts";

// Signing up with a new passkey, apart from signing in: only the passkey step offers it, so the
// first step's page does not carry it.

export async function signUpWithPasskey(flowId: string, signal?: AbortSignal): Promise<FlowResponse> {
  const started = await postStep("AuthFlowPasskeyCreateStart", flowId, {});
  if (signal?.aborted) throw new CeremonyAbandoned();
  if (!started.passkey || !("createOptions" in started.passkey)) throw new ApiError("unexpected", 0);
  const response = await startRegistration({ optionsJSON: started.passkey.createOptions });
  return postStep("AuthFlowPasskeyCreateComplete", flowId, { response });
}
