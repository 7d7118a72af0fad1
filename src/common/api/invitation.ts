import { z } from "zod/mini";
import { idText } from "./text.ts";

// Invitations to an organization: its admins invite an identity, as admin or as member, and only the
// identity's admins' acceptance makes the identity one. Neither side binds the other alone.

export const invitationRoles = ["admin", "member"] as const;
export type InvitationRole = (typeof invitationRoles)[number];

export const invitationCreateSchema = z.strictObject({
  identityId: idText().check(z.trim(), z.minLength(1)),
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
 * typed, nothing of its profile, which the identity shares only by accepting.
 */
export const organizationInvitationSchema = z.extend(invitationBaseSchema, {
  identityId: z.string(),
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
