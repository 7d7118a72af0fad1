import type { Completed } from "../src/common/api/flow.ts";
import { apiPrefix, pathFor, routes, type RouteName } from "../src/common/routes.ts";
import { expectStatus, UnexpectedResponse, type SignIn } from "./code-flow.ts";

// A person going through Vrata's sign-in flow the way its page does, over the flow's JSON API:
// username, password, the identity to use, then back to the app. Sign-in and sign-up are the same
// steps; `outcome` says which one the password step must have been.

export function passwordSignIn(username: string, password: string, outcome: Completed): SignIn {
  return async (browser, interaction) => {
    const flowId = /^\/auth\/([^/]+)$/.exec(interaction.pathname)?.[1];
    if (!flowId) throw new UnexpectedResponse(`authorize sent the browser to ${interaction.pathname}`);
    const step = async (name: RouteName, body: unknown): Promise<unknown> => {
      const response = await browser(new URL(apiPrefix + pathFor(name, { id: flowId }), interaction).href, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await expectStatus(response, 200, name)).json();
    };

    await step("AuthFlowPasswordStart", { emailOrUsername: username });
    const { completed } = (await step("AuthFlowPasswordComplete", { password })) as {
      completed: Completed[];
    };
    if (!completed.includes(outcome))
      throw new UnexpectedResponse(`password step ended in ${completed.join()}`);
    const list = new URL(`${apiPrefix}${routes.IdentityList.path}?flow=${flowId}`, interaction);
    const identities = (await (await expectStatus(await browser(list.href), 200, "identities")).json()) as {
      id: string;
    }[];
    const [identity] = identities;
    if (!identity) throw new UnexpectedResponse("the account has no identity to choose");
    await step("AuthFlowChooseIdentity", { identity: { id: identity.id } });
    await step("AuthFlowRedirect", {});
  };
}
