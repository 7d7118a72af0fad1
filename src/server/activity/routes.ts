import type { FastifyPluginAsync } from "fastify";
import { activityQuerySchema, organizationActivityQuerySchema } from "../../common/api/activity.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, requireConsoleCaller, type CallerDeps } from "../access/caller.ts";
import { administeredOrganization } from "../access/organizations.ts";
import { HttpError } from "../http/errors.ts";
import { findActivity, isOrganizationActivity } from "../store/activities.ts";
import { activityPage, organizationActivityPage, toActivity } from "./activity.ts";
import { withNames } from "./names.ts";

/** A person's own activity: a page at a time, newest first, and single entries, with names. */
export const activityPlugin: FastifyPluginAsync<{ deps: CallerDeps }> = (app, { deps }) => {
  app.get(apiPrefix + routes.ActivityList.path, async (request) => {
    const caller = await requireCaller(deps, request);
    return activityPage(deps.db, caller, parseBody(activityQuerySchema, request.query));
  });

  app.get(apiPrefix + routes.ActivityGet.path, async (request) => {
    const caller = await requireCaller(deps, request);
    const activity = await findActivity(deps.db, (request.params as { id: string }).id);
    if (activity?.accountId !== caller.accountId) throw new HttpError(404, "notFound", "no such activity");
    const [named] = await withNames(deps.db, caller, [toActivity(activity)]);
    return named;
  });

  // An organization's activity, for its admins, as the organization sees it.
  app.get(apiPrefix + routes.OrganizationActivity.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const { stored } = await administeredOrganization(deps.db, caller, (request.params as { id: string }).id);
    const query = parseBody(organizationActivityQuerySchema, request.query);
    return organizationActivityPage(deps.db, caller, stored, query);
  });

  app.get(apiPrefix + routes.OrganizationActivityGet.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const { id, activityId } = request.params as { id: string; activityId: string };
    const { stored } = await administeredOrganization(deps.db, caller, id);
    const activity = (await isOrganizationActivity(deps.db, id, activityId))
      ? await findActivity(deps.db, activityId)
      : undefined;
    if (!activity) throw new HttpError(404, "notFound", "no such activity");
    const [named] = await withNames(deps.db, caller, [toActivity(activity)], stored);
    return named;
  });
  return Promise.resolve();
};
