import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  identityFieldsSchema,
  identitySearchQuerySchema,
  identityUpdateSchema,
  type Identity,
} from "../../common/api/identity.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, type Caller, type CallerDeps } from "../access/caller.ts";
import { limitStore } from "../flow/throttle.ts";
import { HttpError } from "../http/errors.ts";
import { preferredLocale } from "../http/locale.ts";
import { credentialsOf } from "../store/accounts.ts";
import { findIdentities, type IdentityReached, type IdentityRow } from "../store/identities.ts";
import { accessibleIdentities, reachableIdentities, type Access } from "../access/identities.ts";
import { createIdentity, updateIdentity } from "./identities.ts";
import { membershipViews } from "./memberships.ts";
import { tellSharedPeople, type ShareNoticeDeps } from "./share-notices.ts";
import { memberViews } from "./sharing.ts";
import { searchIdentities } from "./search.ts";

function view(identity: IdentityRow, access: Access, caller: Caller): Identity {
  const { admins: _admins, users: _users, shares: _shares, ...fields } = identity.document;
  return {
    ...fields,
    id: identity.id,
    version: identity.version,
    canUpdate: access === "admin",
    isCurrent: identity.id === caller.identityId,
  };
}

/**
 * In a flow, each identity also says how it stands with the flow's organization and app, and whether
 * the organization blocked it (or the account: then every identity, new ones too) with its note, as
 * read with it.
 */
function withMemberships(
  caller: Caller,
  identities: Identity[],
  inApp: Map<string, Pick<IdentityReached, "membership" | "blockNotes">>,
): Identity[] {
  if (!caller.flow) return identities;
  return identities.map((identity) => {
    const { membership, blockNotes = {} } = inApp.get(identity.id) ?? {};
    const blockNote = blockNotes.identity ?? blockNotes.account;
    return {
      ...identity,
      blocked: blockNote !== undefined,
      ...(blockNote !== undefined ? { blockNote } : {}),
      ...(blockNotes.account !== undefined ? { accountBlocked: true } : {}),
      membership: membership
        ? {
            status: membership.active ? "active" : "disabled",
            usedWithApp: membership.usedWithApp,
            ...(membership.chosenForApp ? { chosenForApp: true } : {}),
          }
        : null,
    };
  });
}

/** The identities console API: one's own identities, listed, searched, created, read and changed. */
export const identityPlugin: FastifyPluginAsync<{ deps: CallerDeps & ShareNoticeDeps }> = (app, { deps }) => {
  const { db } = deps;
  const sharing = { db, limits: limitStore(deps) };

  app.get(apiPrefix + routes.IdentityList.path, async (request) => {
    const caller = await requireCaller(deps, request);
    // A view shows nobody the identity is shared with.
    const { access, identities, inApp } = await reachableIdentities(
      db,
      caller.accountId,
      { withAddressShares: false },
      caller.flow,
    );
    const views = identities.map((identity) => view(identity, access.get(identity.id) ?? "user", caller));
    return withMemberships(caller, views, inApp);
  });

  const search = async (request: FastifyRequest) => {
    const caller = await requireCaller(deps, request);
    const { q, limit } = parseBody(identitySearchQuerySchema, request.query);
    return searchIdentities(db, caller.accountId, q, limit);
  };
  for (const url of [routes.IdentitySearch.path, apiPrefix + routes.IdentitySearch.path])
    app.get(url, search);

  app.post(apiPrefix + routes.IdentityCreate.path, async (request, reply) => {
    const caller = await requireCaller(deps, request);
    const identity = await createIdentity(
      db,
      caller.accountId,
      parseBody(identityFieldsSchema, request.body),
    );
    return reply.status(201).send({ id: identity.id });
  });

  /** One identity as the caller reads it; its admins also see who may use and administer it. */
  const full = async (identity: IdentityRow, caller: Caller, access: Map<string, Access>) => {
    const level = access.get(identity.id) ?? "user";
    return {
      ...view(identity, level, caller),
      organizations: await membershipViews(db, identity.id),
      ...(level === "admin" ? await withMembers(identity, caller, access) : {}),
    };
  };
  const withMembers = async (identity: IdentityRow, caller: Caller, access: Map<string, Access>) => {
    const byAddress = (identity.document.shares ?? []).some((share) => share.addressKey !== undefined);
    const addresses = new Set(
      byAddress
        ? (await credentialsOf(db, caller.accountId, "email")).map((credential) => credential.providerId)
        : [],
    );
    return memberViews(
      identity,
      caller.accountId,
      (id) => access.has(id),
      (share) => share.accountId === caller.accountId || addresses.has(share.addressKey ?? null),
    );
  };

  app.get(apiPrefix + routes.IdentityGet.path, async (request) => {
    const caller = await requireCaller(deps, request);
    const { id } = request.params as { id: string };
    const access = await accessibleIdentities(db, caller.accountId);
    const [identity] = access.has(id) ? await findIdentities(db, [id]) : [];
    if (!identity) throw new HttpError(404, "notFound", "no such identity");
    return full(identity, caller, access);
  });

  const update = async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = await requireCaller(deps, request);
    const { id } = request.params as { id: string };
    const body = parseBody(identityUpdateSchema, request.body);
    const { identity, notice } = await updateIdentity(sharing, caller, id, body);
    if (notice) {
      const locale = preferredLocale(request.headers["accept-language"]);
      reply.raw.once("close", () => {
        tellSharedPeople(deps, { ...notice, locale }).catch((error: unknown) => {
          request.log.error({ err: error }, "the people an identity was shared with could not be told");
        });
      });
    }
    // Read again: the edit may have taken the caller's own admin rights (or all access) away.
    return full(identity, caller, await accessibleIdentities(db, caller.accountId));
  };
  for (const url of [routes.IdentityUpdate.path, apiPrefix + routes.IdentityUpdate.path])
    app.post(url, update);
  return Promise.resolve();
};
