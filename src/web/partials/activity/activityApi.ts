import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { activityPageSchema, activitySchema } from "../../../common/api/activity.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson } from "../../api.ts";

export const activityKey = ["activity"] as const;

/** One's activity, newest first, a page at a time: each page's `next` is the cursor of the one after. */
export const activityListQuery = infiniteQueryOptions({
  queryKey: [...activityKey, "list"],
  queryFn: ({ pageParam, signal }) => {
    const query = pageParam === null ? "" : `?${new URLSearchParams({ cursor: pageParam }).toString()}`;
    return getJson(apiPath("ActivityList") + query, activityPageSchema, signal);
  },
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.next ?? null,
});

export function activityQuery(id: string) {
  return queryOptions({
    queryKey: [...activityKey, "one", id],
    queryFn: ({ signal }) => getJson(apiPrefix + pathFor("ActivityGet", { id }), activitySchema, signal),
  });
}
