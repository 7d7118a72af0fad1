import type { LinkInvitation } from "../../common/api/invitation.ts";
import type { Caller } from "../access/caller.ts";
import { HttpError } from "../http/errors.ts";
import { findOrganization } from "../organizations/organizations.ts";
import {
  findAddressInvitationByToken,
  settleAddressInvitation,
  type AddressInvitationRow,
} from "../store/address-invitations.ts";
import { inTransaction, type Database } from "../store/database.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import { grant, inviterStillAdmin, requireIdentityAdmin } from "./acceptance.ts";
import { adminName } from "./admin-name.ts";

// The link of an invitation sent by e-mail. Its token is the invitation: whoever signs in with it
// (the address's owner, with whichever account) answers with one of the identities they administer.
// The link works once; a used, withdrawn or expired one says which.

export interface LinkDeps {
  db: Database;
  tokenHash: KeyedHash;
}

/** The pending invitation of the link; else an error that says why there is none. */
async function pendingOf(db: Database, tokenHash: KeyedHash, token: string): Promise<AddressInvitationRow> {
  const invitation = await findAddressInvitationByToken(db, tokenHash(token));
  if (!invitation) throw new HttpError(404, "notFound", "no such invitation");
  if (invitation.status === "accepted" || invitation.status === "declined")
    throw new HttpError(410, "invitationUsed", "the invitation was answered already");
  if (invitation.status === "withdrawn" || !(await inviterStillAdmin(db, invitation)))
    throw new HttpError(410, "invitationWithdrawn", "the invitation was withdrawn");
  if (invitation.status === "expired" || invitation.expiresAt <= Date.now())
    throw new HttpError(410, "invitationExpired", "the invitation has expired");
  return invitation;
}

export async function linkInvitation(deps: LinkDeps, token: string): Promise<LinkInvitation> {
  const invitation = await pendingOf(deps.db, deps.tokenHash, token);
  const organization = await findOrganization(deps.db, invitation.organizationId);
  if (!organization) throw new HttpError(404, "notFound", "no such invitation");
  return {
    organizationId: invitation.organizationId,
    organizationName: organization.document.name,
    invitedBy: await adminName(deps.db, invitation.organizationId, invitation.invitedByIdentityId),
    role: invitation.role,
    expiresAt: new Date(invitation.expiresAt).toISOString(),
  };
}

/** Takes the invitation for its answer, in the transaction of `trx`: of two answers, one wins. */
async function settle(trx: Database, invitation: AddressInvitationRow, status: "accepted" | "declined") {
  if (!(await settleAddressInvitation(trx, { id: invitation.id }, status, Date.now())))
    throw new HttpError(410, "invitationUsed", "the invitation was answered meanwhile");
}

export async function acceptLink(
  deps: LinkDeps,
  caller: Caller,
  token: string,
  identityId: string,
): Promise<{ organizationId: string }> {
  await requireIdentityAdmin(deps.db, caller.accountId, identityId);
  // The link is spent only with what it grants: a refusal (a block, an identity that is in already)
  // leaves it for another identity.
  return inTransaction(deps.db, async (trx) => {
    const invitation = await pendingOf(trx, deps.tokenHash, token);
    await settle(trx, invitation, "accepted");
    if (!(await grant(trx, caller.accountId, identityId, invitation)))
      throw new HttpError(409, "alreadyJoined", "the identity is in the organization in this role already", {
        field: "identityId",
      });
    return { organizationId: invitation.organizationId };
  });
}

export async function declineLink(deps: LinkDeps, token: string): Promise<void> {
  await inTransaction(deps.db, async (trx) =>
    settle(trx, await pendingOf(trx, deps.tokenHash, token), "declined"),
  );
}
