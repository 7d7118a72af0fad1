import { organizationSchema } from "../../src/common/api/organization.ts";
import { templateSchema } from "../../src/common/api/template.ts";
import { consoleSignUp, postJson } from "./console.ts";

/**
 * Registers, through a Vrata's own console API, an app whose backend client another Vrata uses as
 * its upstream OpenID Connect provider: the client sends people back to `callbackUri`.
 */
export async function registerUpstreamClient(
  upstreamUrl: string,
  callbackUri: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const owner = await consoleSignUp(upstreamUrl, `upstream-owner-${Math.random().toString(36).slice(2, 8)}`);
  const created = await postJson(owner.api, "/api/a/create", {
    name: "Vrata downstream",
    idScopes: ["openid", "profile", "email"],
    variables: [{ name: "callback" }],
    clientsBackend: [{ description: "downstream Vrata", redirectUriTemplates: ["{callback}"] }],
  });
  const { id: templateId } = (await created.json()) as { id: string };
  const template = templateSchema.parse(await (await owner.api(`/api/a/${templateId}`)).json());
  const { id: organizationId } = (await (
    await postJson(owner.api, "/api/o/create", { name: "Downstream" })
  ).json()) as { id: string };
  const organization = organizationSchema.parse(
    await (
      await postJson(owner.api, `/api/o/update/${organizationId}`, {
        version: 1,
        name: "Downstream",
        admins: [],
        applications: [
          { templateId: template.id, active: true, values: [{ name: "callback", value: callbackUri }] },
        ],
      })
    ).json(),
  );
  const clientId = organization.applications?.[0]?.clientsBackend[0]?.id ?? "";
  const clientSecret = organization.secrets?.find((shown) => shown.clientId === clientId)?.secret ?? "";
  if (!clientId || !clientSecret) throw new Error("the upstream gave no backend client");
  return { clientId, clientSecret };
}
