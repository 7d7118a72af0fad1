import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { z } from "zod/mini";
import {
  identityInvitationListSchema,
  linkAcceptedSchema,
  linkInvitationSchema,
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

/** Invites an identity by its ID, or whoever reads an e-mail address. */
export async function invite(
  queryClient: QueryClient,
  id: string,
  body: { identityId: string; role: InvitationRole } | { address: string; role: InvitationRole },
): Promise<void> {
  const route = "address" in body ? "OrganizationInviteByAddress" : "OrganizationInvite";
  await postJson(apiPrefix + pathFor(route, { id }), body, organizationInvitationSchema);
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

/** The invitation an e-mailed link opens, for the signed-in person. */
export function linkInvitationQuery(token: string) {
  return queryOptions({
    queryKey: [...invitationsKey, "link", token],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("InvitationGet", { token }), linkInvitationSchema, signal),
  });
}

/** Answers an e-mailed invitation; an acceptance returns the organization the identity joined. */
export async function answerLink(
  queryClient: QueryClient,
  token: string,
  identityId: string | null,
): Promise<string | null> {
  if (identityId === null) {
    await postJson(apiPrefix + pathFor("InvitationDecline", { token }), {}, z.object({}));
    return null;
  }
  const { organizationId } = await postJson(
    apiPrefix + pathFor("InvitationAccept", { token }),
    { identityId },
    linkAcceptedSchema,
  );
  await Promise.all(
    [organizationsKey, identitiesKey, activityKey].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
  return organizationId;
}
