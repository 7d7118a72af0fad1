import type { QueryClient } from "@tanstack/react-query";
import { connectedAppSchema, type ConnectApp } from "../../../common/api/connect-app.ts";
import { apiPath, pathFor } from "../../../common/routes.ts";
import { postJson } from "../../api.ts";
import { handOverSecrets } from "../organization/handedOverSecrets.ts";
import { organizationsKey } from "../organization/organizationApi.ts";
import { templatesKey } from "../template/templateApi.ts";

/**
 * Connects the app; its page, where this leads, shows the client's new secret once. Returns the
 * path of that page.
 */
export async function connectApp(queryClient: QueryClient, request: ConnectApp): Promise<string> {
  const connected = await postJson(apiPath("ConnectApp"), request, connectedAppSchema);
  handOverSecrets(
    connected.applicationId,
    Object.fromEntries(connected.secrets.map(({ clientId, secret }) => [clientId, secret])),
  );
  await Promise.all(
    [organizationsKey, templatesKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
  return pathFor("OrganizationApp", { id: connected.organizationId, appId: connected.applicationId });
}
