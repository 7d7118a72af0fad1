import type { Database } from "./database.ts";

export interface UpstreamRequest {
  id: string;
  provider: string;
  /** The flow signing in or up, or the account linking the provider: exactly one of the two. */
  flowId: string | null;
  accountId: string | null;
  browserHash: string;
  data: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertUpstreamRequest(db: Database, request: UpstreamRequest): Promise<void> {
  await db
    .insertInto("upstream_requests")
    .values({
      id: request.id,
      provider: request.provider,
      flow_id: request.flowId,
      account_id: request.accountId,
      browser_hash: request.browserHash,
      data: request.data,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    })
    .execute();
}

/**
 * Takes the request out of the store: deleted by the statement that finds it, so of answers arriving
 * at once only one gets it. Undefined when there is none, or it has expired.
 */
export async function takeUpstreamRequest(
  db: Database,
  id: string,
  now: number,
): Promise<UpstreamRequest | undefined> {
  const row = await db
    .deleteFrom("upstream_requests")
    .where("id", "=", id)
    .returning([
      "id",
      "provider",
      "flow_id",
      "account_id",
      "browser_hash",
      "data",
      "created_at",
      "expires_at",
    ])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return undefined;
  return {
    id: row.id,
    provider: row.provider,
    flowId: row.flow_id,
    accountId: row.account_id,
    browserHash: row.browser_hash,
    data: row.data,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export async function deleteExpiredUpstreamRequests(db: Database, now: number): Promise<number> {
  const result = await db.deleteFrom("upstream_requests").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
