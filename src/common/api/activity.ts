import { z } from "zod";
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
  "identityBlocked",
  "accountBlocked",
  "identityUnblocked",
] as const;

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
] as const;

export const activitySchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  type: z.enum(activityTypes),
  identities: z.array(z.object({ id: z.string() })).optional(),
  organizations: z.array(z.object({ id: z.string() })).optional(),
  applicationTemplates: z.array(z.object({ id: z.string() })).optional(),
  applications: z.array(z.object({ organizationId: z.string(), applicationId: z.string() })).optional(),
  providers: z.array(z.string()).optional(),
  changes: z.array(z.enum(activityChanges)).optional(),
});
export type Activity = z.infer<typeof activitySchema>;
export type ActivityType = (typeof activityTypes)[number];
export type ActivityChange = (typeof activityChanges)[number];

/** A page of activity, newest first; `next` is the cursor of the following page. */
export const activityPageSchema = z.object({
  items: z.array(activitySchema),
  next: z.string().optional(),
});

/** What the opaque `next` cursor holds: the time and ID of the page's last entry. */
export const activityCursorSchema = z.tuple([z.int().nonnegative(), z.string().regex(idPattern)]);
