import type { FastifyPluginAsync } from "fastify";
import { blockRequestSchema } from "../../common/api/block.ts";
import { apiPrefix, routes } from "../../common/routes.ts";
import { requireCaller, requireConsoleCaller, type CallerDeps } from "../access/caller.ts";
import { parseBody } from "../http/body.ts";
import { blockIdentity, blockPage, blockStatus, unblockIdentity, type BlockDeps } from "./blocks.ts";

type Params = { id: string; identityId: string };

/** Blocking an organization's identities: managed by its admins at the console, read by the blocked too. */
export const blockPlugin: FastifyPluginAsync<{ deps: CallerDeps & Omit<BlockDeps, "log"> }> = (
  app,
  { deps },
) => {
  const { db } = deps;

  app.get(apiPrefix + routes.OrganizationBlockUser.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const { id, identityId } = request.params as Params;
    return blockPage(db, caller, id, identityId);
  });

  app.post(apiPrefix + routes.OrganizationBlockUser.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const { id, identityId } = request.params as Params;
    const body = parseBody(blockRequestSchema, request.body);
    const acting = { ...deps, log: request.log };
    return "unblock" in body
      ? unblockIdentity(acting, caller, id, identityId)
      : blockIdentity(acting, caller, id, identityId, body);
  });

  const status = async (request: Parameters<typeof requireCaller>[1]) => {
    const caller = await requireCaller(deps, request);
    const { id, identityId } = request.params as Params;
    return blockStatus(db, caller, id, identityId);
  };
  for (const url of [
    routes.OrganizationBlockedStatus.path,
    apiPrefix + routes.OrganizationBlockedStatus.path,
  ])
    app.get(url, status);
  return Promise.resolve();
};
