import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import {
  type OrganizationApplication,
  organizationFieldsSchema,
  organizationUpdateSchema,
  organizationUsersQuerySchema,
} from "../../common/api/organization.ts";
import { connectAppSchema } from "../../common/api/connect-app.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { optionalCaller, requireCaller, requireConsoleCaller, type CallerDeps } from "../access/caller.ts";
import { summaries } from "../access/documents.ts";
import { administeredAmong, isOrganizationAdmin } from "../access/organizations.ts";
import { HttpError } from "../http/errors.ts";
import { ownAdminIdentities } from "../access/identities.ts";
import { configurationNeeds } from "../../common/app-configuration.ts";
import { configuredClients, homepageOf, trySignInOf } from "./clients.ts";
import { organizationUsersPage } from "./users.ts";
import { connectApp } from "./connect-app.ts";
import {
  createOrganization,
  findOrganization,
  listOrganizations,
  organizationIdentity,
  organizationView,
  updateOrganization,
} from "./organizations.ts";

/** What an application's admins connect the app with, and try its sign-in with. */
function setUpView(
  application: OrganizationApplication,
  organizationActive: boolean,
  localCaFile: string | undefined,
) {
  const trySignIn = trySignInOf(application, organizationActive);
  return {
    clients: configuredClients(application),
    needs: configurationNeeds(application),
    ...(trySignIn ? { trySignIn } : {}),
    ...(localCaFile ? { localCaFile } : {}),
  };
}

/** Organizations: public summaries, created by anyone signed in, managed by their admins. */
export const organizationPlugin: FastifyPluginAsync<{
  deps: CallerDeps;
  /** Their apps' URIs that Vrata calls may name internal hosts (--backchannel-logout-private). */
  reachInternal: boolean;
  /** The local CA's certificate file, when Vrata serves a certificate of its own (never a key's path). */
  localCaFile: string | undefined;
}> = (app, { deps, reachInternal, localCaFile }) => {
  const { db } = deps;

  app.get(apiPrefix + routes.OrganizationList.path, async (request) => {
    const listed = await listOrganizations(db);
    return summaries(listed, await administeredAmong(db, await optionalCaller(deps, request), listed));
  });

  app.post(apiPrefix + routes.OrganizationCreate.path, async (request, reply) => {
    const caller = await requireCaller(deps, request);
    const id = await createOrganization(db, caller, parseBody(organizationFieldsSchema, request.body));
    return reply.status(201).send({ id });
  });

  app.post(apiPrefix + routes.ConnectApp.path, async (request, reply) => {
    const caller = await requireConsoleCaller(deps, request);
    const body = parseBody(connectAppSchema, request.body);
    return reply.status(201).send(await connectApp(db, caller, body, reachInternal));
  });

  app.get(apiPrefix + routes.OrganizationGet.path, async (request) => {
    const { id } = request.params as { id: string };
    const stored = await findOrganization(db, id);
    if (!stored) throw new HttpError(404, "notFound", "no such organization");
    const caller = await optionalCaller(deps, request);
    const ownAdmins = await ownAdminIdentities(db, caller, stored.document.admins);
    const view = organizationView(
      id,
      stored.version,
      stored.document,
      await isOrganizationAdmin(db, caller, stored),
    );
    return ownAdmins ? { ...view, ownAdminIdentities: ownAdmins } : view;
  });

  app.get(apiPrefix + routes.OrganizationApp.path, async (request) => {
    const { id, appId } = request.params as { id: string; appId: string };
    const organization = await findOrganization(db, id);
    const admin =
      organization !== undefined &&
      (await isOrganizationAdmin(db, await optionalCaller(deps, request), organization));
    const application = organization?.document.applications.find(
      (candidate) => candidate.id === appId && (candidate.active || admin),
    );
    if (!application) throw new HttpError(404, "notFound", "no such active application");
    const { applicationTemplate, values, active } = application;
    const homepage = homepageOf(application);
    return {
      id: appId,
      active,
      applicationTemplate,
      values,
      ...(homepage ? { homepage } : {}),
      // What the admins configure the app with; client IDs need not be published to everybody.
      ...(admin ? setUpView(application, organization.document.active !== false, localCaFile) : {}),
    };
  });

  app.get(apiPrefix + routes.OrganizationIdentity.path, async (request) => {
    const caller = await requireCaller(deps, request);
    const { id, identityId } = request.params as { id: string; identityId: string };
    return organizationIdentity(db, caller, id, identityId);
  });

  app.get(apiPrefix + routes.OrganizationUsers.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const { id } = request.params as { id: string };
    return organizationUsersPage(db, caller, id, parseBody(organizationUsersQuerySchema, request.query));
  });

  const update = async (request: FastifyRequest) => {
    const caller = await requireCaller(deps, request);
    const body = parseBody(organizationUpdateSchema, request.body);
    return updateOrganization(db, caller, (request.params as { id: string }).id, body, reachInternal);
  };
  for (const url of [routes.OrganizationUpdate.path, apiPrefix + routes.OrganizationUpdate.path])
    app.post(url, update);
  return Promise.resolve();
};
