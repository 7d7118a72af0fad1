import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod/mini";
import {
  createdSchema,
  identityListSchema,
  identitySchema,
  identitySearchSchema,
  type Identity,
  type IdentityFields,
  type identityUpdateSchema,
} from "../../../common/api/identity.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";
import { activityKey } from "../activity/activityApi.ts";

// The console's identity calls, with the console's access token (api.ts adds it).

export const identitiesKey = ["identities"] as const;

export const identitiesQuery = queryOptions({
  queryKey: [...identitiesKey, "list"],
  queryFn: ({ signal }) => getJson(apiPath("IdentityList"), identityListSchema, signal),
});

export function identityQuery(id: string) {
  return queryOptions({
    queryKey: [...identitiesKey, "one", id],
    queryFn: ({ signal }) => getJson(apiPrefix + pathFor("IdentityGet", { id }), identitySchema, signal),
  });
}

/** The identities the signed-in person may pick, whose names contain the words of `text`. */
export function identitySearchQuery(text: string, limit: number) {
  return queryOptions({
    queryKey: [...identitiesKey, "search", text, limit],
    queryFn: ({ signal }) =>
      getJson(
        `${apiPath("IdentitySearch")}?${new URLSearchParams({ q: text, limit: String(limit) }).toString()}`,
        identitySearchSchema,
        signal,
      ),
  });
}

export async function createIdentity(fields: IdentityFields): Promise<string> {
  return (await postJson(apiPath("IdentityCreate"), fields, createdSchema)).id;
}

/** Saves the fields over the identity at `version`; a 409 (conflict) when it changed since. */
export function updateIdentity(id: string, body: z.infer<typeof identityUpdateSchema>): Promise<Identity> {
  return postJson(apiPrefix + pathFor("IdentityUpdate", { id }), body, identitySchema);
}

/**
 * Saves the identity with its membership in the organization set active or disabled, or, with null,
 * left; its other memberships and its fields stay as they are.
 */
export function saveMembership(
  identity: Identity,
  organizationId: string,
  active: boolean | null,
): Promise<Identity> {
  const organizations = (identity.organizations ?? []).flatMap((current) => {
    if (current.organizationId !== organizationId)
      return [{ organizationId: current.organizationId, active: current.active }];
    return active === null ? [] : [{ organizationId, active }];
  });
  return updateIdentity(identity.id, { version: identity.version, organizations });
}

/** Saves the membership (see {@link saveMembership}); the identity's page and the lists show the change. */
export async function changeMembership(
  queryClient: QueryClient,
  identity: Identity,
  organizationId: string,
  active: boolean | null,
): Promise<void> {
  const updated = await saveMembership(identity, organizationId, active);
  queryClient.setQueryData(identityQuery(identity.id).queryKey, updated);
  await invalidateAfterIdentityChange(queryClient);
}

/**
 * After an identity was created or changed: the list and the activity are loaded again when shown; the
 * identity's own query is set from the answer by the caller.
 */
export async function invalidateAfterIdentityChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: identitiesQuery.queryKey }),
    queryClient.invalidateQueries({ queryKey: activityKey }),
  ]);
}
