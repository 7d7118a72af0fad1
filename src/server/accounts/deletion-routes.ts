import type { FastifyPluginAsync } from "fastify";
import { accountDeleteBodySchema } from "../../common/api/account-deletion.ts";
import { emptyBodySchema } from "../../common/api/flow.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { requireConsoleCaller, type CallerDeps } from "../access/caller.ts";
import { parseBody } from "../http/body.ts";
import { deletionView, keepAccount, requestDeletion } from "./account-deletion.ts";

/**
 * The account page's deletion: whether one is pending, asking for it (after a fresh sign-in) and
 * keeping the account after all.
 */
export const accountDeletionPlugin: FastifyPluginAsync<{ deps: CallerDeps; graceDays: number }> = (
  app,
  { deps, graceDays },
) => {
  const { db } = deps;
  app.get(apiPrefix + routes.AccountDeletion.path, async (request) =>
    deletionView(db, graceDays, (await requireConsoleCaller(deps, request)).accountId),
  );
  for (const url of [routes.AccountDelete.path, apiPrefix + routes.AccountDelete.path])
    app.post(url, async (request, reply) => {
      const { accountId } = await requireConsoleCaller(deps, request);
      const { confirmation } = parseBody(accountDeleteBodySchema, request.body);
      return requestDeletion(deps, graceDays, request, reply, accountId, confirmation);
    });
  for (const url of [routes.AccountDeleteCancel.path, apiPrefix + routes.AccountDeleteCancel.path])
    app.post(url, async (request) => {
      const { accountId } = await requireConsoleCaller(deps, request);
      parseBody(emptyBodySchema, request.body);
      await keepAccount(db, accountId);
      return deletionView(db, graceDays, accountId);
    });
  return Promise.resolve();
};
