import { z } from "zod";
import { identitySearchMaxLength, identitySearchMaxResults } from "../limits.ts";
import { idText, typedText } from "./text.ts";

const optionalText = (max: number) => typedText(max).optional();

/** The fields a person edits (spec §3); at least one of the first five is needed. */
export const identityFieldsSchema = z.strictObject({
  username: optionalText(254),
  email: optionalText(254),
  givenName: optionalText(200),
  fullName: optionalText(200),
  pictureUrl: optionalText(2000),
  description: optionalText(4000),
});
export type IdentityFields = z.infer<typeof identityFieldsSchema>;

/** The organizations an identity is a member of, as its admin sets them. */
export const membershipChangeSchema = z.strictObject({
  organizationId: idText(),
  active: z.boolean(),
});

export const identityUpdateSchema = identityFieldsSchema.extend({
  version: z.number().int().positive(),
  /** When given, the identity joins, leaves, activates or disables organizations to match the list. */
  organizations: z.array(membershipChangeSchema).max(200).optional(),
});

/** An identity's membership as its users and admins see it. */
export const identityOrganizationSchema = z.object({
  /** The organization-scoped ID: what the organization's apps see as `sub`. */
  id: z.string(),
  organizationId: z.string(),
  active: z.boolean(),
  applications: z.array(z.string()),
});

/** How an identity stands with the organization of the flow being completed. */
export const membershipSchema = z.object({
  status: z.enum(["active", "disabled"]),
  /** Used before with the flow's app. */
  usedWithApp: z.boolean(),
});

export const identitySchema = identityFieldsSchema.extend({
  id: z.string(),
  version: z.number().int(),
  /** The person may change it (admin of the identity). */
  canUpdate: z.boolean(),
  /** It is the identity the console is signed in with. */
  isCurrent: z.boolean(),
  /** Only in a flow's list: the identity's standing in the flow's organization, null when none. */
  membership: membershipSchema.nullable().optional(),
  /** Only in a flow's list: blocked in the flow's organization. */
  blocked: z.boolean().optional(),
  /** Only in a flow's list, when blocked: the organization's note to the person. */
  blockNote: z.string().optional(),
  /** Only in a flow's list: the organization blocked the account, so no identity of it can be used there. */
  accountBlocked: z.boolean().optional(),
  /** Only when reading one identity: its organizations. */
  organizations: z.array(identityOrganizationSchema).optional(),
});
export type Identity = z.infer<typeof identitySchema>;

export const identityListSchema = z.array(identitySchema);
export const createdSchema = z.object({ id: z.string() });

/** Display name fallback of spec §3: username, e-mail, given name, full name, ID. */
export function displayName(
  identity: Pick<Identity, "id" | "username" | "email" | "givenName" | "fullName">,
): string {
  return identity.username || identity.email || identity.givenName || identity.fullName || identity.id;
}

/**
 * `GET /api/i/search`: `q` is matched against usernames, e-mail addresses and names (every word of it
 * must occur); an empty `q` lists the first identities. `limit` caps the answer.
 */
export const identitySearchQuerySchema = z.strictObject({
  q: typedText(identitySearchMaxLength).default(""),
  limit: z.coerce.number().int().min(1).max(identitySearchMaxResults).default(identitySearchMaxResults),
});

/** A found identity: what a picker shows of it (no description, no memberships). */
export const identityMatchSchema = identityFieldsSchema
  .omit({ description: true })
  .extend({ id: z.string() });
export type IdentityMatch = z.infer<typeof identityMatchSchema>;

export const identitySearchSchema = z.object({
  identities: z.array(identityMatchSchema),
  /** More identities match than were answered: a longer `q` narrows them down. */
  more: z.boolean(),
});
