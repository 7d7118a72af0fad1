import { queryOptions, type QueryClient } from "@tanstack/react-query";
import {
  accountSessionsSchema,
  connectedAppsSchema,
  type AccountSessions,
  type ConnectedApps,
} from "../../../common/api/account-sessions.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";
import { activityKey } from "../activity/activityApi.ts";

// The account page's calls about the browsers where the person is signed in and their connected apps.

export const sessionsQuery = queryOptions({
  queryKey: ["account", "sessions"],
  queryFn: ({ signal }) => getJson(apiPath("AccountSessions"), accountSessionsSchema, signal),
});

export const appsQuery = queryOptions({
  queryKey: ["account", "apps"],
  queryFn: ({ signal }) => getJson(apiPath("AccountApps"), connectedAppsSchema, signal),
});

/** The page shows what the last call answered; the activity list has a new entry. */
function shown(
  queryClient: QueryClient,
  key: readonly unknown[],
  data: AccountSessions | ConnectedApps,
): void {
  queryClient.setQueryData(key, data);
  void queryClient.invalidateQueries({ queryKey: activityKey });
}

export async function endSession(queryClient: QueryClient, id: string): Promise<void> {
  const path = apiPrefix + pathFor("AccountSessionEnd", { id });
  shown(queryClient, sessionsQuery.queryKey, await postJson(path, {}, accountSessionsSchema));
}

/** Signs out every other browser ("Sign out everywhere else"). */
export async function endOtherSessions(queryClient: QueryClient): Promise<void> {
  const answer = await postJson(apiPath("AccountSessionsEndOthers"), {}, accountSessionsSchema);
  shown(queryClient, sessionsQuery.queryKey, answer);
}

export async function disconnectApp(queryClient: QueryClient, id: string): Promise<void> {
  const path = apiPrefix + pathFor("AccountAppDisconnect", { id });
  shown(queryClient, appsQuery.queryKey, await postJson(path, {}, connectedAppsSchema));
}
