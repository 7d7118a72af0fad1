import pg from "pg";
import { apiPrefix, pathFor, type RouteName } from "../src/common/routes.ts";
import { encodeCursor } from "../src/server/activity/activity.ts";
import type { Workload } from "./load.ts";

// The console's lists as an organization admin reads them: the first page, a page from the middle of
// the list (by the cursor the page before it would have given), and the searches the pages offer.

/**
 * Two admins paging at once: a page's latency is then what one admin waits, not how long a queue of
 * requests in flight at once grows on one worker.
 */
export const listConnections = 2;

export interface ListWorkload {
  name: string;
  workload: Workload;
  /** A member search for words many members have, which has a tighter target of its own. */
  commonWords?: true;
}

/** Whom the lists are read as, and about what. */
export interface ListSubjects {
  organizationId: string;
  accountId: string;
  /** The bench person's organization-scoped ID, whose activity the organization lists. */
  membershipId: string;
  accessToken: string;
}

/**
 * The cursor of the page that starts halfway down a list: what paging from the first page would reach,
 * without the thousands of requests that take. The cursor is the position of the row before it.
 */
async function middleCursor(client: pg.Client, query: string, key: string): Promise<string> {
  const total = await client.query<{ count: string }>(`select count(*) from (${query}) as list`, [key]);
  const offset = Math.floor(Number(total.rows[0]?.count ?? 0) / 2);
  const row = await client.query<{ created_at: string; id: string }>(
    `${query} order by created_at desc, id desc offset ${offset} limit 1`,
    [key],
  );
  const position = row.rows[0];
  if (!position) throw new Error(`no rows in ${query}`);
  return encodeCursor(Number(position.created_at), position.id);
}

const isPage = (body: string) => body.startsWith('{"items":[{');
const isEmptyPage = (body: string) => body === '{"items":[]}';
const isList = (body: string) => body.startsWith("[{") || body.startsWith('{"identities":[{');

export async function listWorkloads(databaseUrl: string, subjects: ListSubjects): Promise<ListWorkload[]> {
  const { organizationId, accountId, membershipId, accessToken } = subjects;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const [members, organizationActivity, ownActivity] = await (async () => {
    try {
      return [
        await middleCursor(
          client,
          "select created_at, id from identity_organizations where organization_id = $1",
          organizationId,
        ),
        await middleCursor(
          client,
          "select created_at, activity_id as id from activity_organizations where organization_id = $1",
          organizationId,
        ),
        await middleCursor(client, "select created_at, id from activities where account_id = $1", accountId),
      ];
    } finally {
      await client.end();
    }
  })();
  const get = (
    name: string,
    route: RouteName,
    query: Record<string, string> = {},
    verify: (body: string) => boolean = isPage,
  ): ListWorkload => {
    const search = new URLSearchParams(query).toString();
    return {
      name,
      workload: {
        path: apiPrefix + pathFor(route, { id: organizationId }) + (search ? `?${search}` : ""),
        headers: { authorization: `Bearer ${accessToken}` },
        verify,
        connections: listConnections,
      },
    };
  };
  return [
    get("organization users, first page", "OrganizationUsers"),
    get("organization users, middle page", "OrganizationUsers", { cursor: members }),
    { ...get("organization users, search 'novak'", "OrganizationUsers", { q: "novak" }), commonWords: true },
    {
      ...get("organization users, search 'ana kos'", "OrganizationUsers", { q: "ana kos" }),
      commonWords: true,
    },
    // A rare word beside one every member has: the search starts from the few identities with it.
    get("organization users, search 'person-12345'", "OrganizationUsers", { q: "person-12345" }, () => true),
    get("organization activity, first page", "OrganizationActivity"),
    get("organization activity, middle page", "OrganizationActivity", { cursor: organizationActivity }),
    get("organization activity, one member", "OrganizationActivity", { identity: membershipId }),
    get("organization activity, sign-ins", "OrganizationActivity", { category: "signIns" }),
    get(
      "organization activity, sign-in methods (none)",
      "OrganizationActivity",
      { category: "signInMethods" },
      isEmptyPage,
    ),
    get("own activity, first page", "ActivityList"),
    get("own activity, middle page", "ActivityList", { cursor: ownActivity }),
    get("own activity, sign-in methods (none)", "ActivityList", { category: "signInMethods" }, isEmptyPage),
    get("own identities", "IdentityList", {}, isList),
    get("identity search", "IdentitySearch", { q: "bench" }, isList),
    get("organizations", "OrganizationList", {}, isList),
    get("application templates", "ApplicationTemplateList", {}, (body) => body.startsWith("[")),
  ];
}
