import type { FastifyPluginAsync } from "fastify";
import { activityQuerySchema } from "../../common/api/activity.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, type CallerDeps } from "../access/caller.ts";
import { HttpError } from "../http/errors.ts";
import { findActivity } from "../store/activities.ts";
import { activityPage, toActivity } from "./activity.ts";
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
  return Promise.resolve();
};
