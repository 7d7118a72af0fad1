import type { FlowResponse } from "../../../common/api/flow.ts";
import type { PendingSecondFactor } from "../../../common/api/second-factor.ts";
import { ProveSecondFactor } from "./ProveSecondFactor.tsx";
import { SecondFactorFooter, type SecondFactorExits } from "./SecondFactorFooter.tsx";
import { SecondFactorSetUp } from "./SecondFactorSetUp.tsx";

interface SecondFactorStepProps extends SecondFactorExits {
  readonly flow: FlowResponse;
  readonly pending: PendingSecondFactor;
}

/**
 * The first factor is proven and the sign-in asks for a second one: from the methods the account has,
 * or, having none, one the person sets up now.
 */
export function SecondFactorStep({ pending, flow, ...exits }: SecondFactorStepProps) {
  return (
    <div className="flex flex-col gap-5">
      {pending.setUp ? (
        <SecondFactorSetUp flowId={exits.flowId} flow={flow} pending={pending} onFlow={exits.onFlow} />
      ) : (
        <ProveSecondFactor flowId={exits.flowId} flow={flow} pending={pending} onFlow={exits.onFlow} />
      )}
      <SecondFactorFooter {...exits} />
    </div>
  );
}
