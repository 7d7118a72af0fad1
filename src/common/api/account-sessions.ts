import { z } from "zod/mini";
import { personalDataScopes } from "../scopes.ts";
import { appScopeSchema } from "./app-scope.ts";

// The account page's browsers where the person is signed in, and the apps they gave an identity to.

/** A browser where the account is signed in (its single sign-on session), by an opaque ID of its own. */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** The browser's and the system's names, when its user agent names ones Vrata knows. */
  browser: z.optional(z.string()),
  os: z.optional(z.string()),
  /** A phone or a tablet. */
  mobile: z.boolean(),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  /** The browser this page is open in. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** `GET /account/sessions`, and the answer of ending some: most recently used first. */
export const accountSessionsSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessions = z.infer<typeof accountSessionsSchema>;

/** An app of an organization that holds a grant of the account. */
export const connectedAppSchema = z.object({
  /** The application's ID: what "Disconnect" names. */
  id: z.string(),
  organizationName: z.string(),
  applicationName: z.string(),
  /** The identity the app knows the person by, by its display name. */
  identityName: z.string(),
  /** The OpenID scopes granted that give it data of the identity (`profile`, `email`). */
  personalData: z.array(z.enum(personalDataScopes)),
  /** Whether it may keep access while the person is away (`offline_access`, refresh tokens). */
  offlineAccess: z.boolean(),
  /** The scopes of the app's own API granted, with their descriptions. */
  appScopes: z.array(appScopeSchema),
  /** When the person last signed in to it. */
  connectedAt: z.string(),
  /** Vrata's own console: disconnecting it would sign this page out, so it is not offered. */
  console: z.boolean(),
});
export type ConnectedApp = z.infer<typeof connectedAppSchema>;

/** `GET /account/apps`, and the answer of disconnecting one: most recently connected first. */
export const connectedAppsSchema = z.object({ apps: z.array(connectedAppSchema) });
export type ConnectedApps = z.infer<typeof connectedAppsSchema>;
