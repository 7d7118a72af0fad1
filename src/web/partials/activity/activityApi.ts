import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { z } from "zod/mini";
import {
  activityPageSchema,
  activitySchema,
  type Activity,
  type ActivityCategory,
} from "../../../common/api/activity.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson } from "../../api.ts";

export const activityKey = ["activity"] as const;

// Entries of a type this page does not know yet (a newer server's) are read too: the list names them
// in general words instead of failing as a whole.
const listedEntrySchema = z.extend(activitySchema, { type: z.string() });
const listedPageSchema = z.extend(activityPageSchema, { items: z.array(listedEntrySchema) });
const asActivity = (entry: z.infer<typeof listedEntrySchema>) => entry as Activity;

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
    queryFn: async ({ pageParam, signal }) => {
      const query = new URLSearchParams({
        ...(pageParam === null ? {} : { cursor: pageParam }),
        ...set,
      }).toString();
      const page = await getJson(path + (query ? `?${query}` : ""), listedPageSchema, signal);
      return { ...page, items: page.items.map(asActivity) };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? null,
  });
}

/** The account page's security activity: sign-ins and changes to the ways in, a few at a time. */
export function accountActivityQuery() {
  return pagedActivity([...activityKey, "account"], apiPath("AccountActivity"), { limit: "5" });
}

export function activityQuery(id: string) {
  return queryOptions({
    queryKey: [...activityKey, "one", id],
    queryFn: async ({ signal }) =>
      asActivity(await getJson(apiPrefix + pathFor("ActivityGet", { id }), listedEntrySchema, signal)),
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
    queryFn: async ({ signal }) =>
      asActivity(
        await getJson(
          apiPrefix + pathFor("OrganizationActivityGet", { id, activityId }),
          listedEntrySchema,
          signal,
        ),
      ),
  });
}
