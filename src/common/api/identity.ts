import { z } from "zod";
import {
  identityMembersMax,
  identitySearchMaxLength,
  identitySearchMaxResults,
  usernameOrEmailMaxLength,
} from "../limits.ts";
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

/**
 * An entry of the users or admins its admin sends: one that is there already, by the ID the identity
 * page shows for it, or a person to share the identity with, by their username or e-mail address.
 */
export const memberChangeSchema = z.union([
  z.strictObject({ id: idText() }),
  z.strictObject({ person: typedText(usernameOrEmailMaxLength).min(1) }),
]);
export type MemberChange = z.infer<typeof memberChangeSchema>;

export const identityUpdateSchema = identityFieldsSchema.extend({
  version: z.number().int().positive(),
  /** When given, the identity joins, leaves, activates or disables organizations to match the list. */
  organizations: z.array(membershipChangeSchema).max(200).optional(),
  /** When given, those who may use the identity become these (an admin listed here stops being one). */
  users: z.array(memberChangeSchema).max(identityMembersMax).optional(),
  /** When given, its admins become these; at least one always remains. */
  admins: z.array(memberChangeSchema).max(identityMembersMax).optional(),
});

/** Who may use or administer an identity, as its admins see them. */
export const identityMemberSchema = z.object({
  /** The identity's own ID (its creator's entry), another identity's ID, or the ID of a share. */
  id: z.string(),
  /** For a person the identity was shared with: the username or e-mail address it was shared by. */
  person: z.string().optional(),
  /** The identity's own entry: whoever created it has their access through it. */
  creator: z.boolean(),
  /** The entry the signed-in person has their access through. */
  isCurrent: z.boolean(),
});
export type IdentityMember = z.infer<typeof identityMemberSchema>;

/** An identity's membership as its users and admins see it. */
export const identityOrganizationSchema = z.object({
  /** The organization-scoped ID: what the organization's apps see as `sub`. */
  id: z.string(),
  organizationId: z.string(),
  /** The organization's name, which everybody may read. */
  organizationName: z.string().optional(),
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
  /** Only when one of its admins reads one identity: who may use it. */
  users: z.array(identityMemberSchema).optional(),
  /** Only when one of its admins reads one identity: who administers it. */
  admins: z.array(identityMemberSchema).optional(),
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
