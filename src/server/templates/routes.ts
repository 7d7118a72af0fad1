import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { templateFieldsSchema, templateUpdateSchema } from "../../common/api/template.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { optionalCaller, requireCaller, type CallerDeps } from "../access/caller.ts";
import { adminListed, summaries } from "../access/documents.ts";
import { HttpError } from "../http/errors.ts";
import { ownAdminIdentities } from "../access/identities.ts";
import { followTemplate } from "../organizations/follow-template.ts";
import { organizationIdsWithTemplate } from "../store/documents.ts";
import { createTemplate, findTemplate, listTemplates, templateView, updateTemplate } from "./templates.ts";

/** Application templates: public to read, created by anyone signed in, changed by their admins. */
export const templatePlugin: FastifyPluginAsync<{
  deps: CallerDeps;
  /** URIs that Vrata calls may name internal hosts (--backchannel-logout-private). */
  reachInternal: boolean;
}> = (app, { deps, reachInternal }) => {
  const { db } = deps;

  app.get(apiPrefix + routes.ApplicationTemplateList.path, async (request) => {
    const listed = await listTemplates(db);
    return summaries(listed, adminListed(listed, await optionalCaller(deps, request)));
  });

  app.post(apiPrefix + routes.ApplicationTemplateCreate.path, async (request, reply) => {
    const caller = await requireCaller(deps, request);
    const fields = parseBody(templateFieldsSchema, request.body);
    return reply.status(201).send({ id: await createTemplate(db, caller, fields, reachInternal) });
  });

  app.get(apiPrefix + routes.ApplicationTemplateGet.path, async (request) => {
    const { id } = request.params as { id: string };
    const stored = await findTemplate(db, id);
    if (!stored) throw new HttpError(404, "notFound", "no such application template");
    const caller = await optionalCaller(deps, request);
    const ownAdmins = await ownAdminIdentities(db, caller, stored.document.admins);
    const view = templateView(id, stored.version, stored.document, caller);
    // Its admins are told how many organizations a change reaches; others are not.
    const usage = view.canUpdate
      ? { organizationsUsing: (await organizationIdsWithTemplate(db, id)).length }
      : {};
    return { ...view, ...usage, ...(ownAdmins ? { ownAdminIdentities: ownAdmins } : {}) };
  });

  const update = async (request: FastifyRequest) => {
    const caller = await requireCaller(deps, request);
    const { version, organizationsUsing: _asRead, ...fields } = parseBody(templateUpdateSchema, request.body);
    const { id } = request.params as { id: string };
    const updated = await updateTemplate(db, caller, id, version, fields, reachInternal);
    // Every organization's app of the template follows the version just saved.
    return { ...updated, organizationsUsing: await followTemplate(db, id) };
  };
  for (const url of [
    routes.ApplicationTemplateUpdate.path,
    apiPrefix + routes.ApplicationTemplateUpdate.path,
  ]) {
    app.post(url, update);
  }
  return Promise.resolve();
};
