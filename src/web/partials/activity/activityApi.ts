import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { activityPageSchema, activitySchema, type ActivityCategory } from "../../../common/api/activity.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson } from "../../api.ts";

export const activityKey = ["activity"] as const;

/**
 * One's activity, newest first, a page at a time, of one category or all: each page's `next` is the
 * cursor of the one after.
 */
export function activityListQuery(category: ActivityCategory | undefined) {
  return infiniteQueryOptions({
    queryKey: [...activityKey, "list", category ?? "all"],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({
        ...(pageParam === null ? {} : { cursor: pageParam }),
        ...(category ? { category } : {}),
      }).toString();
      return getJson(apiPath("ActivityList") + (query ? `?${query}` : ""), activityPageSchema, signal);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? null,
  });
}

export function activityQuery(id: string) {
  return queryOptions({
    queryKey: [...activityKey, "one", id],
    queryFn: ({ signal }) => getJson(apiPrefix + pathFor("ActivityGet", { id }), activitySchema, signal),
  });
}
