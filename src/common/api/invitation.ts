import { z } from "zod/mini";
import { usernameOrEmailMaxLength } from "../limits.ts";
import { idText, typedText } from "./text.ts";

// Invitations to an organization: its admins invite an identity, as admin or as member, and only the
// identity's admins' acceptance makes the identity one. Neither side binds the other alone.

export const invitationRoles = ["admin", "member"] as const;
export type InvitationRole = (typeof invitationRoles)[number];

export const invitationCreateSchema = z.strictObject({
  identityId: idText().check(z.trim(), z.minLength(1)),
  role: z.enum(invitationRoles),
});

/**
 * `POST /api/o/inviteByAddress/{id}`: invites whoever reads the mailbox; they answer with an identity
 * of their choice once signed in.
 */
export const invitationByAddressSchema = z.strictObject({
  address: typedText(usernameOrEmailMaxLength).check(z.minLength(1)),
  role: z.enum(invitationRoles),
});

const invitationBaseSchema = z.object({
  id: z.string(),
  role: z.enum(invitationRoles),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/**
 * A pending invitation as the organization's admins see it: the invited identity by the ID they
 * typed, nothing of its profile, which the identity shares only by accepting; or the e-mail address
 * they invited.
 */
export const organizationInvitationSchema = z.extend(invitationBaseSchema, {
  identityId: z.optional(z.string()),
  address: z.optional(z.string()),
  invitedBy: z.string(),
});
export type OrganizationInvitation = z.infer<typeof organizationInvitationSchema>;
export const organizationInvitationListSchema = z.array(organizationInvitationSchema);

/** A pending invitation as the invited identity's admins see it. */
export const identityInvitationSchema = z.extend(invitationBaseSchema, {
  organizationId: z.string(),
  organizationName: z.string(),
});
export type IdentityInvitation = z.infer<typeof identityInvitationSchema>;
export const identityInvitationListSchema = z.array(identityInvitationSchema);

/**
 * `GET /api/invitation/{token}`: an e-mailed invitation as the signed-in person who opened its link
 * sees it. Who invited is named as the organization shows that admin.
 */
export const linkInvitationSchema = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  invitedBy: z.string(),
  role: z.enum(invitationRoles),
  expiresAt: z.string(),
});
export type LinkInvitation = z.infer<typeof linkInvitationSchema>;

/** `POST /api/invitation/accept/{token}`: the identity, one the person administers, that accepts. */
export const linkAcceptSchema = z.strictObject({ identityId: idText().check(z.minLength(1)) });

/** The answer to an accepted link: the organization the identity is now in. */
export const linkAcceptedSchema = z.object({ organizationId: z.string() });
