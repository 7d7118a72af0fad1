import type { z } from "zod/mini";
import type { OrganizationInvitation, invitationByAddressSchema } from "../../common/api/invitation.ts";
import { invitationLifetimeMs, type Locale } from "../../common/limits.ts";
import { pathFor } from "../../common/routes.ts";
import type { Caller } from "../access/caller.ts";
import { administeredOrganization } from "../access/organizations.ts";
import { normalizeIdentifier } from "../accounts/normalize.ts";
import { invitationBuckets, isRefusal, releaseAll, reserveAll, type LimitStore } from "../flow/throttle.ts";
import { HttpError, TooManyRequestsError } from "../http/errors.ts";
import { newId, newSecret } from "../ids.ts";
import { invitationMessage } from "../mail/invitation-message.ts";
import { MailUnavailableError, type Mailer } from "../mail/mailer.ts";
import type { KeyedHash } from "../secrets/keyed-hash.ts";
import {
  deleteAddressInvitation,
  insertAddressInvitation,
  type AddressInvitationRow,
} from "../store/address-invitations.ts";
import type { Database } from "../store/database.ts";
import { adminName } from "./admin-name.ts";
import { addressInvitationView } from "./invitations.ts";

// Invitations by e-mail address: the organization's admins invite whoever reads a mailbox, and that
// person answers through the e-mailed link with an identity of their choice. Nothing here asks whether
// an account has the address: the answer and the e-mail are the same either way.

export interface AddressInvitationDeps {
  db: Database;
  limits: LimitStore;
  mailer: Mailer;
  /** Keys the links' tokens: the store keeps only their hashes. */
  tokenHash: KeyedHash;
  issuer: string;
  title: string;
}

const dayMs = 24 * 60 * 60 * 1000;

export async function inviteByAddress(
  deps: AddressInvitationDeps,
  caller: Caller,
  organizationId: string,
  { address, role }: z.infer<typeof invitationByAddressSchema>,
  locale: Locale,
): Promise<OrganizationInvitation> {
  const { db } = deps;
  const { editor, stored } = await administeredOrganization(db, caller, organizationId);
  const identifier = normalizeIdentifier(address);
  if (typeof identifier === "string" || identifier.kind !== "email")
    throw new HttpError(400, "invalidEmail", "invalid e-mail address", { field: "address" });
  const reserved = await reserveAll(deps.limits, invitationBuckets(organizationId, identifier.key));
  if (isRefusal(reserved))
    throw new TooManyRequestsError(
      "too many invitations sent; try again later",
      Math.ceil(reserved.retryAfterMs / 1000),
    );
  const token = newSecret();
  const now = Date.now();
  const invitation: AddressInvitationRow = {
    id: newId(),
    organizationId,
    tokenHash: deps.tokenHash(token),
    addressKey: identifier.key,
    address: identifier.display,
    role,
    status: "pending",
    invitedByIdentityId: editor,
    invitedByAccountId: caller.accountId,
    createdAt: now,
    expiresAt: now + invitationLifetimeMs,
  };
  if (!(await insertAddressInvitation(db, invitation))) {
    await releaseAll(deps.limits, reserved);
    throw new HttpError(409, "alreadyInvited", "the address has a pending invitation for this role", {
      field: "address",
    });
  }
  try {
    await deps.mailer.send(
      invitationMessage({
        to: identifier.display,
        organizationName: stored.document.name,
        invitedBy: await adminName(db, organizationId, editor),
        role,
        link: deps.issuer + pathFor("InvitationGet", { token }),
        title: deps.title,
        issuer: deps.issuer,
        days: invitationLifetimeMs / dayMs,
        locale,
      }),
    );
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) throw error;
    // An invitation nobody received is none: it costs no limit and is not listed.
    await deleteAddressInvitation(db, invitation.id);
    await releaseAll(deps.limits, reserved);
    throw new HttpError(503, "mailUnavailable", "the invitation could not be sent; try again in a moment");
  }
  return addressInvitationView(invitation);
}
