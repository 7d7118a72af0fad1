import { z } from "zod/mini";
import {
  identityMembersMax,
  identityNameMaxLength,
  identitySearchMaxLength,
  identitySearchMaxResults,
  usernameOrEmailMaxLength,
} from "../limits.ts";
import { idText, typedText } from "./text.ts";

const optionalText = (max: number) => z.optional(typedText(max));

/** The fields a person edits (spec §3); at least one of the first five is needed. */
export const identityFieldsSchema = z.strictObject({
  username: optionalText(254),
  email: optionalText(254),
  givenName: optionalText(identityNameMaxLength),
  fullName: optionalText(identityNameMaxLength),
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
  z.strictObject({ person: typedText(usernameOrEmailMaxLength).check(z.minLength(1)) }),
]);
export type MemberChange = z.infer<typeof memberChangeSchema>;

export const identityUpdateSchema = z.extend(identityFieldsSchema, {
  version: z.int().check(z.positive()),
  /** When given, the identity joins, leaves, activates or disables organizations to match the list. */
  organizations: z.optional(z.array(membershipChangeSchema).check(z.maxLength(200))),
  /** When given, those who may use the identity become these (an admin listed here stops being one). */
  users: z.optional(z.array(memberChangeSchema).check(z.maxLength(identityMembersMax))),
  /** When given, its admins become these; at least one always remains. */
  admins: z.optional(z.array(memberChangeSchema).check(z.maxLength(identityMembersMax))),
});

/** Who may use or administer an identity, as its admins see them. */
export const identityMemberSchema = z.object({
  /** The identity's own ID (its creator's entry), another identity's ID, or the ID of a share. */
  id: z.string(),
  /** For a person the identity was shared with: the username or e-mail address it was shared by. */
  person: z.optional(z.string()),
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
  organizationName: z.optional(z.string()),
  active: z.boolean(),
  applications: z.array(z.string()),
});

/** How an identity stands with the organization of the flow being completed. */
export const membershipSchema = z.object({
  status: z.enum(["active", "disabled"]),
  /** Used before with the flow's app. */
  usedWithApp: z.boolean(),
  /** The identity the person last chose for the flow's app: it is offered first. */
  chosenForApp: z.optional(z.boolean()),
});

export const identitySchema = z.extend(identityFieldsSchema, {
  id: z.string(),
  version: z.int(),
  /** The person may change it (admin of the identity). */
  canUpdate: z.boolean(),
  /** It is the identity the console is signed in with. */
  isCurrent: z.boolean(),
  /** Only in a flow's list: the identity's standing in the flow's organization, null when none. */
  membership: z.optional(z.nullable(membershipSchema)),
  /** Only in a flow's list: blocked in the flow's organization. */
  blocked: z.optional(z.boolean()),
  /** Only in a flow's list, when blocked: the organization's note to the person. */
  blockNote: z.optional(z.string()),
  /** Only in a flow's list: the organization blocked the account, so no identity of it can be used there. */
  accountBlocked: z.optional(z.boolean()),
  /** Only when reading one identity: its organizations. */
  organizations: z.optional(z.array(identityOrganizationSchema)),
  /** Only when one of its admins reads one identity: who may use it. */
  users: z.optional(z.array(identityMemberSchema)),
  /** Only when one of its admins reads one identity: who administers it. */
  admins: z.optional(z.array(identityMemberSchema)),
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
 * must begin a word of one of them); an empty `q` lists the first identities. `limit` caps the answer.
 */
export const identitySearchQuerySchema = z.strictObject({
  q: z._default(typedText(identitySearchMaxLength), ""),
  limit: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(identitySearchMaxResults)),
    identitySearchMaxResults,
  ),
});

/** A found identity: what a picker shows of it (no description, no memberships). */
export const identityMatchSchema = z.extend(z.omit(identityFieldsSchema, { description: true }), {
  id: z.string(),
});
export type IdentityMatch = z.infer<typeof identityMatchSchema>;

export const identitySearchSchema = z.object({
  identities: z.array(identityMatchSchema),
  /** More identities match than were answered: a longer `q` narrows them down. */
  more: z.boolean(),
});
