import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  invitationByAddressSchema,
  invitationCreateSchema,
  linkAcceptSchema,
} from "../../common/api/invitation.ts";
import { apiPrefix, routes, type RouteDefinition, type RouteName } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, type Caller, type CallerDeps } from "../access/caller.ts";
import { limitStore } from "../flow/throttle.ts";
import { preferredLocale } from "../http/locale.ts";
import type { Mailer } from "../mail/mailer.ts";
import { inviteByAddress } from "./by-address.ts";
import { acceptLink, declineLink, linkInvitation } from "./links.ts";
import {
  accept,
  decline,
  identityInvitations,
  invite,
  organizationInvitations,
  withdraw,
} from "./invitations.ts";

type Params = { id: string; invitationId: string; token: string };

export type InvitationDeps = CallerDeps & { mailer: Mailer; title: string };

/** Invitations to organizations: made and withdrawn by its admins, answered by the identity's admins. */
export const invitationPlugin: FastifyPluginAsync<{ deps: InvitationDeps }> = (app, { deps }) => {
  const { db } = deps;
  const links = { db, tokenHash: deps.secrets.invitationTokens };
  const byAddress = { ...deps, ...links, limits: limitStore(deps) };
  /** API-only routes answer on the bare path and under /api. */
  const on = (
    method: "get" | "post",
    name: RouteName,
    handle: (
      caller: Caller,
      params: Params,
      request: FastifyRequest,
      reply: FastifyReply,
    ) => Promise<unknown>,
  ) => {
    // A page's bare path is the web app's.
    const route: RouteDefinition = routes[name];
    for (const url of route.view ? [apiPrefix + route.path] : [route.path, apiPrefix + route.path]) {
      app[method](url, async (request, reply) =>
        handle(await requireCaller(deps, request), request.params as Params, request, reply),
      );
    }
  };

  on("get", "OrganizationInvitations", (caller, { id }) => organizationInvitations(db, caller, id));
  on("post", "OrganizationInvite", async (caller, { id }, request, reply) =>
    reply.status(201).send(await invite(db, caller, id, parseBody(invitationCreateSchema, request.body))),
  );
  on("post", "OrganizationInviteByAddress", async (caller, { id }, request, reply) => {
    const body = parseBody(invitationByAddressSchema, request.body);
    const locale = preferredLocale(request.headers["accept-language"]);
    return reply.status(201).send(await inviteByAddress(byAddress, caller, id, body, locale));
  });
  on("post", "OrganizationInvitationWithdraw", (caller, { id, invitationId }) =>
    withdraw(db, caller, id, invitationId),
  );
  on("get", "IdentityInvitations", (caller, { id }) => identityInvitations(db, caller.accountId, id));
  on("post", "IdentityInvitationAccept", (caller, { id, invitationId }) =>
    accept(db, caller.accountId, id, invitationId),
  );
  on("post", "IdentityInvitationDecline", (caller, { id, invitationId }) =>
    decline(db, caller.accountId, id, invitationId),
  );
  on("get", "InvitationGet", (_caller, { token }) => linkInvitation(links, token));
  on("post", "InvitationAccept", (caller, { token }, request) =>
    acceptLink(links, caller, token, parseBody(linkAcceptSchema, request.body).identityId),
  );
  on("post", "InvitationDecline", async (_caller, { token }) => {
    await declineLink(links, token);
    return {};
  });
  return Promise.resolve();
};
