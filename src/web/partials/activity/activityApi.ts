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
  return pagedActivity([...activityKey, "list"], apiPath("ActivityList"), { category });
}

/** A list of activity at `path`, a page at a time, narrowed by the filters that are set. */
function pagedActivity(key: readonly string[], path: string, filters: Record<string, string | undefined>) {
  const set = Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return infiniteQueryOptions({
    queryKey: [...key, set],
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({
        ...(pageParam === null ? {} : { cursor: pageParam }),
        ...set,
      }).toString();
      return getJson(path + (query ? `?${query}` : ""), activityPageSchema, signal);
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

/** An organization's activity, for its admins: of one category, of one member (scoped ID), or all. */
export function organizationActivityListQuery(
  id: string,
  category: ActivityCategory | undefined,
  identity: string | undefined,
) {
  return pagedActivity(
    [...activityKey, "organization", id],
    apiPrefix + pathFor("OrganizationActivity", { id }),
    { category, identity },
  );
}

export function organizationActivityQuery(id: string, activityId: string) {
  return queryOptions({
    queryKey: [...activityKey, "organization", id, "one", activityId],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("OrganizationActivityGet", { id, activityId }), activitySchema, signal),
  });
}
