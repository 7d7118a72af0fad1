import { z } from "zod/mini";
import { idPattern } from "../ids.ts";

export const activityTypes = [
  "signIn",
  "signOut",
  "identityCreate",
  "identityUpdate",
  "organizationCreate",
  "organizationUpdate",
  "applicationTemplateCreate",
  "applicationTemplateUpdate",
  /** An organization's app was updated from its template, which its developers saved. */
  "applicationTemplateFollowed",
  "identityBlocked",
  "accountBlocked",
  "identityUnblocked",
  "credentialAdd",
  "credentialUpdate",
  "credentialRemove",
  /** An app of the organization could not be told that a person's session ended (back-channel logout). */
  "backchannelLogoutFailed",
  /** The person signed a browser out from the account page. */
  "sessionEnd",
  /** The person disconnected an app from the account page: its grants ended. */
  "appDisconnect",
  /** An identity left the organization because the only account that controlled it was deleted. */
  "identityRemoved",
  /** The account's person asked for it to be deleted after the grace period, or kept it after all. */
  "accountDeletionRequested",
  "accountDeletionCancelled",
] as const;

/**
 * The kinds of change (spec §3). A membership change is about an organization's applications when the
 * entry is about an organization, and about an identity's organizations when it is about an identity.
 */
export const activityChanges = [
  "otherData",
  "permissionsAdded",
  "permissionsRemoved",
  "membershipAdded",
  "membershipRemoved",
  "membershipChanged",
  "membershipActivated",
  "membershipDisabled",
  "identitiesAdded",
  "identitiesRemoved",
] as const;

/** The fields of identities, organizations and templates whose change an "other data" change names. */
export const changedFields = [
  "username",
  "email",
  "givenName",
  "fullName",
  "pictureUrl",
  "name",
  "description",
  "homepageTemplate",
  "idScopes",
  "appScopes",
  "variables",
  "clientsPublic",
  "clientsBackend",
  "clientsService",
  /** An organization's sign-in policy. */
  "signInPolicy",
] as const;

/**
 * Groups of types a person can narrow the list to. Each activity is stored with its category, so a
 * list narrowed to one reads only its entries.
 */
export const activityCategories = {
  signIns: ["signIn", "signOut", "backchannelLogoutFailed", "sessionEnd", "appDisconnect"],
  identities: [
    "identityCreate",
    "identityUpdate",
    "identityBlocked",
    "identityUnblocked",
    "accountBlocked",
    "identityRemoved",
  ],
  organizations: ["organizationCreate", "organizationUpdate", "applicationTemplateFollowed"],
  applicationTemplates: ["applicationTemplateCreate", "applicationTemplateUpdate"],
  signInMethods: ["credentialAdd", "credentialUpdate", "credentialRemove"],
  account: ["accountDeletionRequested", "accountDeletionCancelled"],
} as const satisfies Record<string, readonly ActivityType[]>;
export type ActivityCategory = keyof typeof activityCategories;
export const activityCategoryNames = Object.keys(activityCategories) as ActivityCategory[];

/** The category of a type of activity; every type is in exactly one. */
export function categoryOf(type: string): ActivityCategory | undefined {
  return activityCategoryNames.find((name) => (activityCategories[name] as readonly string[]).includes(type));
}

/**
 * What an entry refers to. Recorded with its ID only; the activity answer adds the name, and the page
 * where the reader can open it, when the reader may see it (see server/activity/names.ts).
 */
const named = {
  name: z.optional(z.string()),
  /** A path of this site; absent when the reader cannot open the item's page. */
  path: z.optional(z.string()),
};
export const referenceSchema = z.object({ id: z.string(), ...named });
export const applicationReferenceSchema = z.object({
  organizationId: z.string(),
  applicationId: z.string(),
  ...named,
});
export type Reference = z.infer<typeof referenceSchema>;
export type ApplicationReference = z.infer<typeof applicationReferenceSchema>;

/** One kind of change, with what it changed when that was recorded (entries before that have none). */
export const changeSchema = z.object({
  kind: z.enum(activityChanges),
  fields: z.optional(z.array(z.enum(changedFields))),
  identities: z.optional(z.array(referenceSchema)),
  organizations: z.optional(z.array(referenceSchema)),
  applications: z.optional(z.array(applicationReferenceSchema)),
  /** Of a permissions change of an identity: whether it is about its admins or its users. */
  role: z.optional(z.enum(["admin", "user"])),
  /** People an identity was shared with, by the username or e-mail address it was shared by. */
  people: z.optional(z.array(z.string())),
});
export type Change = z.infer<typeof changeSchema>;

export const activitySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  type: z.enum(activityTypes),
  /** Who did it, when that is not the reader: an organization's admin, or a member as it sees them. */
  actor: z.optional(referenceSchema),
  identities: z.optional(z.array(referenceSchema)),
  organizations: z.optional(z.array(referenceSchema)),
  applicationTemplates: z.optional(z.array(referenceSchema)),
  applications: z.optional(z.array(applicationReferenceSchema)),
  providers: z.optional(z.array(z.string())),
  /**
   * The sign-in method a credential entry is about, named as it was then (it may since have been
   * renamed or removed); `previousName` when it was renamed.
   */
  credential: z.optional(
    z.object({ id: z.string(), name: z.string(), previousName: z.optional(z.string()) }),
  ),
  changes: z.optional(z.array(changeSchema)),
});
export type Activity = z.infer<typeof activitySchema>;
export type ActivityType = (typeof activityTypes)[number];
export type ActivityChange = (typeof activityChanges)[number];
export type ChangedField = (typeof changedFields)[number];

/** How many entries a page of activity holds. */
export const activityPageSize = 20;

/** A page of activity, newest first; `next` is the cursor of the following page. */
export const activityPageSchema = z.object({
  items: z.array(activitySchema),
  next: z.optional(z.string()),
});

/** The list's query: the cursor of the page and, optionally, one category of types. */
export const activityQuerySchema = z.object({
  cursor: z.optional(z.string()),
  category: z.optional(z.enum(activityCategoryNames as [ActivityCategory, ...ActivityCategory[]])),
});

/** An organization's activity: also one member's only, by organization-scoped ID. */
export const organizationActivityQuerySchema = z.extend(activityQuerySchema, {
  identity: z.optional(z.string().check(z.regex(idPattern))),
});

/** What the opaque `next` cursor holds: the time and ID of the page's last entry. */
export const activityCursorSchema = z.tuple([
  z.int().check(z.nonnegative()),
  z.string().check(z.regex(idPattern)),
]);

/**
 * The account page's security activity: the categories of its sign-ins and of changes to its ways in,
 * its sessions and its apps (a type added to one of these is listed there too).
 */
export const securityCategories: readonly ActivityCategory[] = ["signIns", "signInMethods", "account"];

/** `GET /api/account/activity`: the cursor of the page, and how many entries a page holds at most. */
export const accountActivityQuerySchema = z.strictObject({
  cursor: z.optional(z.string()),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(activityPageSize))),
});
