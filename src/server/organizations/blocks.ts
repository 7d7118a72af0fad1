import type { FastifyBaseLogger } from "fastify";
import type Provider from "oidc-provider";
import type { BlockPage, BlockRecord, BlockStatus } from "../../common/api/block.ts";
import { displayName } from "../../common/api/identity.ts";
import { recordActivity } from "../activity/activity.ts";
import { blockStatusReader } from "../access/blocks.ts";
import type { Caller } from "../access/caller.ts";
import { accountsWithAccess } from "../access/identities.ts";
import { HttpError } from "../http/errors.ts";
import { logEvent } from "../operations/events.ts";
import { newId } from "../ids.ts";
import { revokeInOrganization } from "../oidc/revocation.ts";
import type { BackchannelLogouts } from "../oidc/backchannel-logout.ts";
import {
  accountsOfBlock,
  blocksOfAccount,
  findBlockInForce,
  insertBlock,
  liftBlock,
  type BlockRow,
} from "../store/blocks.ts";
import type { Database } from "../store/database.ts";
import { findIdentity, findMembershipById } from "../store/identities.ts";
import { administeredOrganization } from "../access/organizations.ts";
import { findOrganization, organizationIdentity } from "./organizations.ts";

// Blocks (spec §2, design.md §6): an organization's admins block one of its identities, or the identity
// and every sign-in of the accounts behind it there. A block takes effect at once and is a record that
// can be lifted; the accounts it covers are never shown to the admins.

export interface BlockDeps {
  db: Database;
  /** The acting request's log, which tells of each block and each block lifted. */
  log: FastifyBaseLogger;
  provider: Provider;
  logouts: BackchannelLogouts;
}

async function recordOf(db: Database, block: BlockRow): Promise<BlockRecord> {
  const admin = await findIdentity(db, block.blockedBy);
  return {
    scope: block.scope,
    adminNote: block.adminNote,
    userNote: block.userNote,
    blockedBy: admin
      ? { id: admin.id, name: displayName({ id: admin.id, ...admin.document }) }
      : { id: block.blockedBy },
    createdAt: new Date(block.createdAt).toISOString(),
  };
}

/** The identity as the organization sees it and its block in force: for the organization's admins. */
export async function blockPage(
  db: Database,
  caller: Caller,
  organizationId: string,
  scopedId: string,
): Promise<BlockPage> {
  await administeredOrganization(db, caller, organizationId);
  const identity = await organizationIdentity(db, caller, organizationId, scopedId);
  const membership = await findMembershipById(db, scopedId);
  const block = membership && (await findBlockInForce(db, organizationId, membership.identityId));
  return { identity, block: block ? await recordOf(db, block) : null };
}

/** The membership an admin acts on, 404 when the organization has no such identity. */
async function memberOf(db: Database, organizationId: string, scopedId: string) {
  const membership = await findMembershipById(db, scopedId);
  if (membership?.organizationId !== organizationId)
    throw new HttpError(404, "notFound", "no such identity in this organization");
  return membership;
}

export async function blockIdentity(
  deps: BlockDeps,
  caller: Caller,
  organizationId: string,
  scopedId: string,
  request: { scope: BlockRow["scope"]; adminNote: string; userNote: string },
): Promise<BlockPage> {
  const { db } = deps;
  const { editor } = await administeredOrganization(db, caller, organizationId);
  const membership = await memberOf(db, organizationId, scopedId);
  const accounts = await accountsWithAccess(db, membership.identityId);
  // An admin who blocked themself would lose the organization they manage mid-sentence.
  if (accounts.includes(caller.accountId) || membership.identityId === editor)
    throw new HttpError(400, "blockSelf", "admins cannot block their own identities");
  const covered = request.scope === "identityAndAccounts" ? accounts : [];
  const block = {
    id: newId(),
    organizationId,
    membershipId: membership.id,
    identityId: membership.identityId,
    ...request,
    blockedBy: editor,
    createdAt: Date.now(),
  };
  if (!(await insertBlock(db, block, covered)))
    throw new HttpError(409, "alreadyBlocked", "the identity is already blocked in this organization");
  await revokeInOrganization(deps, {
    organizationId,
    membershipId: membership.id,
    identityId: membership.identityId,
    accountIds: covered,
  });

  const about = { identities: [{ id: membership.identityId }], organizations: [{ id: organizationId }] };
  // The admin's entry is also the organization's, which names the admin who blocked.
  await recordActivity(db, caller.accountId, { type: "identityBlocked", actor: { id: editor }, ...about }, [
    { organizationId, membershipId: membership.id },
  ]);
  const type = request.scope === "identityAndAccounts" ? "accountBlocked" : "identityBlocked";
  for (const accountId of accounts) await recordActivity(db, accountId, { type, ...about });
  logEvent(deps.log, "identityBlocked", {
    organizationId,
    identityId: membership.identityId,
    scope: request.scope,
    byAccountId: caller.accountId,
  });
  return blockPage(db, caller, organizationId, scopedId);
}

export async function unblockIdentity(
  { db, log }: Pick<BlockDeps, "db" | "log">,
  caller: Caller,
  organizationId: string,
  scopedId: string,
): Promise<BlockPage> {
  const { editor } = await administeredOrganization(db, caller, organizationId);
  const membership = await memberOf(db, organizationId, scopedId);
  const notBlocked = () =>
    new HttpError(409, "notBlocked", "the identity is not blocked in this organization");
  const block = await findBlockInForce(db, organizationId, membership.identityId);
  if (!block) throw notBlocked();
  // The accounts behind the identity then and now: they are told it is over, and none of them may
  // lift it, through whichever of their identities is an admin here.
  const accounts = new Set([
    ...(await accountsOfBlock(db, block.id)),
    ...(await accountsWithAccess(db, block.identityId)),
  ]);
  if (accounts.has(caller.accountId))
    throw new HttpError(403, "unblockSelf", "admins cannot lift a block of their own identity or account");
  if (!(await liftBlock(db, block.id, editor, Date.now()))) throw notBlocked();

  const about = { identities: [{ id: block.identityId }], organizations: [{ id: organizationId }] };
  await recordActivity(db, caller.accountId, { type: "identityUnblocked", actor: { id: editor }, ...about }, [
    { organizationId, membershipId: block.membershipId },
  ]);
  for (const accountId of accounts)
    await recordActivity(db, accountId, { type: "identityUnblocked", ...about });
  logEvent(log, "identityUnblocked", {
    organizationId,
    identityId: block.identityId,
    byAccountId: caller.accountId,
  });
  return blockPage(db, caller, organizationId, scopedId);
}

const statusOf = (block: BlockRow, withAdminNote: boolean): BlockStatus => ({
  blocked: true,
  scope: block.scope,
  userNote: block.userNote,
  ...(withAdminNote ? { adminNote: block.adminNote } : {}),
  createdAt: new Date(block.createdAt).toISOString(),
});

/**
 * Whether the organization's identity is blocked: to its admins with their note, to the people who
 * can use the identity without it (also when the block is of their account, not of this identity);
 * 404 to anybody else.
 */
export async function blockStatus(
  db: Database,
  caller: Caller,
  organizationId: string,
  scopedId: string,
): Promise<BlockStatus> {
  const organization = await findOrganization(db, organizationId);
  const membership = await findMembershipById(db, scopedId);
  const notFound = new HttpError(404, "notFound", "no such identity in this organization");
  if (!organization || membership?.organizationId !== organizationId) throw notFound;
  const reader = await blockStatusReader(db, caller, organization, membership.identityId);
  if (!reader) throw notFound;
  const block = await findBlockInForce(db, organizationId, membership.identityId);
  if (block) return statusOf(block, reader === "admin");
  const [ofAccount] = reader === "person" ? await blocksOfAccount(db, organizationId, caller.accountId) : [];
  return ofAccount ? statusOf(ofAccount, false) : { blocked: false };
}
