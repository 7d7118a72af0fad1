import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { blockPageSchema, type BlockPage, type BlockRequest } from "../../../common/api/block.ts";
import { apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";
import { organizationIdentityQuery, organizationsKey } from "./organizationApi.ts";

export function blockPageQuery(id: string, identityId: string) {
  return queryOptions({
    queryKey: [...organizationsKey, "block", id, identityId],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("OrganizationBlockUser", { id, identityId }), blockPageSchema, signal),
  });
}

/** Blocks or unblocks; the page and the identity's own page show the new state at once. */
export async function changeBlock(
  queryClient: QueryClient,
  id: string,
  identityId: string,
  body: BlockRequest,
): Promise<BlockPage> {
  const page = await postJson(
    apiPrefix + pathFor("OrganizationBlockUser", { id, identityId }),
    body,
    blockPageSchema,
  );
  queryClient.setQueryData(blockPageQuery(id, identityId).queryKey, page);
  queryClient.setQueryData(organizationIdentityQuery(id, identityId).queryKey, page.identity);
  return page;
}
