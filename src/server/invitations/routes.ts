import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { invitationCreateSchema } from "../../common/api/invitation.ts";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, type Caller, type CallerDeps } from "../access/caller.ts";
import {
  accept,
  decline,
  identityInvitations,
  invite,
  organizationInvitations,
  withdraw,
} from "./invitations.ts";

type Params = { id: string; invitationId: string };

/** Invitations to organizations: made and withdrawn by its admins, answered by the identity's admins. */
export const invitationPlugin: FastifyPluginAsync<{ deps: CallerDeps }> = (app, { deps }) => {
  const { db } = deps;
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
    for (const url of [routes[name].path, apiPrefix + routes[name].path]) {
      app[method](url, async (request, reply) =>
        handle(await requireCaller(deps, request), request.params as Params, request, reply),
      );
    }
  };

  on("get", "OrganizationInvitations", (caller, { id }) => organizationInvitations(db, caller, id));
  on("post", "OrganizationInvite", async (caller, { id }, request, reply) =>
    reply.status(201).send(await invite(db, caller, id, parseBody(invitationCreateSchema, request.body))),
  );
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
  return Promise.resolve();
};
