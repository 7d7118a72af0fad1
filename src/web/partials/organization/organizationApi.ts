import { infiniteQueryOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { z } from "zod/mini";
import { createdSchema } from "../../../common/api/identity.ts";
import {
  organizationIdentitySchema,
  organizationSchema,
  organizationUsersPageSchema,
  publicApplicationSchema,
  type Organization,
  type OrganizationUpdate,
} from "../../../common/api/organization.ts";
import { documentListSchema } from "../../../common/api/summary.ts";
import { apiPath, apiPrefix, pathFor, routes } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";

export const organizationsKey = ["organizations"] as const;

export const organizationsQuery = queryOptions({
  queryKey: [...organizationsKey, "list"],
  queryFn: ({ signal }) => getJson(apiPath("OrganizationList"), documentListSchema, signal),
});

export function organizationQuery(id: string) {
  return queryOptions({
    queryKey: [...organizationsKey, "one", id],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("OrganizationGet", { id }), organizationSchema, signal),
  });
}

export function applicationQuery(id: string, appId: string) {
  return queryOptions({
    queryKey: [...organizationsKey, "app", id, appId],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("OrganizationApp", { id, appId }), publicApplicationSchema, signal),
  });
}

/** This server's issuer, as OpenID discovery announces it: what apps are configured with. */
export const issuerQuery = queryOptions({
  queryKey: ["discovery", "issuer"],
  staleTime: Infinity,
  queryFn: async ({ signal }) =>
    (await getJson(routes.OIDCDiscovery.path, z.object({ issuer: z.string() }), signal)).issuer,
});

export function organizationIdentityQuery(id: string, identityId: string) {
  return queryOptions({
    queryKey: [...organizationsKey, "identity", id, identityId],
    queryFn: ({ signal }) =>
      getJson(
        apiPrefix + pathFor("OrganizationIdentity", { id, identityId }),
        organizationIdentitySchema,
        signal,
      ),
  });
}

/** The organization's members for its admins, newest first, a page at a time; with `q`, those found by it. */
export function organizationUsersQuery(id: string, q: string) {
  return infiniteQueryOptions({
    queryKey: [...organizationsKey, "users", id, q],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({
        ...(pageParam === null ? {} : { cursor: pageParam }),
        ...(q ? { q } : {}),
      }).toString();
      const path = apiPrefix + pathFor("OrganizationUsers", { id });
      return getJson(path + (query ? `?${query}` : ""), organizationUsersPageSchema, signal);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? null,
  });
}

export async function createOrganization(fields: { name: string; description?: string }): Promise<string> {
  return (await postJson(apiPath("OrganizationCreate"), fields, createdSchema)).id;
}

/** What an update sends when nothing of the organization changes: its current state. */
export function updateOf(organization: Organization): OrganizationUpdate {
  return {
    version: organization.version,
    name: organization.name,
    description: organization.description,
    admins: organization.admins ?? [],
    applications: (organization.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
    rotateSecrets: [],
    active: organization.active,
  };
}

/** Saves the organization over `version` and updates the cache; the answer has any new secrets. */
export async function updateOrganization(
  queryClient: QueryClient,
  id: string,
  body: OrganizationUpdate,
): Promise<Organization> {
  const updated = await postJson(apiPrefix + pathFor("OrganizationUpdate", { id }), body, organizationSchema);
  const { secrets: _secrets, ...organization } = updated;
  queryClient.setQueryData(organizationQuery(id).queryKey, organization);
  await queryClient.invalidateQueries({ queryKey: organizationsQuery.queryKey });
  return updated;
}
