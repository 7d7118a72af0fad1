import { queryOptions, type QueryClient } from "@tanstack/react-query";
import {
  identityInvitationListSchema,
  organizationInvitationListSchema,
  organizationInvitationSchema,
  type IdentityInvitation,
  type InvitationRole,
  type OrganizationInvitation,
} from "../../../common/api/invitation.ts";
import { apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";
import { activityKey } from "../activity/activityApi.ts";
import { identitiesKey } from "../identity/identityApi.ts";
import { organizationsKey } from "../organization/organizationApi.ts";

// Invitations to organizations: made and withdrawn on the organization's page, answered on the
// invited identity's page.

const invitationsKey = ["invitations"] as const;

export function organizationInvitationsQuery(id: string) {
  return queryOptions({
    queryKey: [...invitationsKey, "organization", id],
    queryFn: ({ signal }) =>
      getJson(
        apiPrefix + pathFor("OrganizationInvitations", { id }),
        organizationInvitationListSchema,
        signal,
      ),
  });
}

export function identityInvitationsQuery(id: string) {
  return queryOptions({
    queryKey: [...invitationsKey, "identity", id],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("IdentityInvitations", { id }), identityInvitationListSchema, signal),
  });
}

export async function invite(
  queryClient: QueryClient,
  id: string,
  body: { identityId: string; role: InvitationRole },
): Promise<void> {
  await postJson(apiPrefix + pathFor("OrganizationInvite", { id }), body, organizationInvitationSchema);
  await queryClient.invalidateQueries({ queryKey: organizationInvitationsQuery(id).queryKey });
}

export async function withdraw(
  queryClient: QueryClient,
  id: string,
  invitation: OrganizationInvitation,
): Promise<void> {
  const remaining = await postJson(
    apiPrefix + pathFor("OrganizationInvitationWithdraw", { id, invitationId: invitation.id }),
    {},
    organizationInvitationListSchema,
  );
  queryClient.setQueryData(organizationInvitationsQuery(id).queryKey, remaining);
}

/** Accepts or declines; an acceptance changes the organization and the identity's memberships. */
export async function answer(
  queryClient: QueryClient,
  id: string,
  invitation: IdentityInvitation,
  accepted: boolean,
): Promise<void> {
  const route = accepted ? "IdentityInvitationAccept" : "IdentityInvitationDecline";
  const remaining = await postJson(
    apiPrefix + pathFor(route, { id, invitationId: invitation.id }),
    {},
    identityInvitationListSchema,
  );
  queryClient.setQueryData(identityInvitationsQuery(id).queryKey, remaining);
  if (!accepted) return;
  await Promise.all(
    [organizationsKey, identitiesKey, activityKey].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
