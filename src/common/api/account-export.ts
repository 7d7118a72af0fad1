import { z } from "zod/mini";
import { activitySchema } from "./activity.ts";

// `GET /api/account/export`: everything Vrata holds about the signed-in person's account, as one JSON
// document (README "Your data: export" describes every field). It holds what the person may know of
// their own data, and never a secret: no password hash, passkey key or counter, authenticator seed,
// recovery code, token, session or cookie ID.

/** The format's name and version: a change that removes or renames a field makes a new version. */
export const accountExportFormat = "vrata-account-export";
export const accountExportVersion = 1;

/** The name the download is saved as: the day of the export. */
export const accountExportFileName = (now: Date) => `vrata-account-${now.toISOString().slice(0, 10)}.json`;

const time = z.string();

const reference = z.object({ id: z.string(), name: z.optional(z.string()) });

/** An app of an organization: the organization's and the app's IDs and names. */
const appSchema = z.object({
  organization: reference,
  application: reference,
});

const blockSchema = z.object({
  /** `identity`: this identity only; `account`: every identity of the account in the organization. */
  scope: z.enum(["identity", "account"]),
  since: time,
  /** What the organization's admins told the person. */
  note: z.string(),
});

const membershipSchema = z.object({
  organization: reference,
  /** The identifier this organization and its apps know the identity by (`sub`). */
  organizationScopedId: z.string(),
  status: z.enum(["active", "disabled"]),
  joinedAt: time,
  lastSignedInAt: z.optional(time),
  /** The organization's apps the identity signed in to. */
  applicationsUsed: z.array(reference),
  /** Blocks in force on this identity in the organization. */
  blocks: z.array(blockSchema),
});

const identitySchema = z.object({
  id: z.string(),
  /** `admin`: the account manages it; `user`: it may sign in with it. */
  role: z.enum(["admin", "user"]),
  /** Whether this account created it. */
  createdByThisAccount: z.boolean(),
  document: z.object({
    username: z.optional(z.string()),
    email: z.optional(z.string()),
    givenName: z.optional(z.string()),
    fullName: z.optional(z.string()),
    pictureUrl: z.optional(z.string()),
    description: z.optional(z.string()),
  }),
  memberships: z.array(membershipSchema),
});

export const accountExportSchema = z.object({
  format: z.literal(accountExportFormat),
  version: z.literal(accountExportVersion),
  exportedAt: time,
  account: z.object({ id: z.string(), createdAt: time }),
  credentials: z.object({
    usernames: z.array(z.object({ username: z.string(), addedAt: time })),
    /** Verified addresses (one of them primary), and addresses being added until their code is typed. */
    emailAddresses: z.array(
      z.object({
        address: z.string(),
        state: z.enum(["verified", "pending"]),
        primary: z.boolean(),
        addedAt: time,
      }),
    ),
    password: z.object({ set: z.boolean(), setAt: z.optional(time), changedAt: z.optional(time) }),
    passkeys: z.array(
      z.object({
        name: z.string(),
        authenticator: z.optional(z.string()),
        createdAt: time,
        lastUsedAt: z.optional(time),
        synced: z.boolean(),
        backedUp: z.boolean(),
      }),
    ),
    providers: z.array(
      z.object({
        provider: z.string(),
        providerName: z.optional(z.string()),
        name: z.string(),
        linkedAt: time,
      }),
    ),
    secondFactors: z.array(
      z.object({
        kind: z.enum(["authenticatorApp", "recoveryCodes"]),
        addedAt: time,
        lastUsedAt: z.optional(time),
        /** Recovery codes: how many are left unused. */
        unused: z.optional(z.int()),
      }),
    ),
  }),
  identities: z.array(identitySchema),
  /** Blocks in force on the whole account, by organization. */
  accountBlocks: z.array(z.extend(blockSchema, { organization: reference })),
  sessions: z.array(
    z.object({
      signedInAt: z.optional(time),
      expiresAt: z.optional(time),
      /** The browser's user agent and when it was last used to sign in to an app, when Vrata noted them. */
      userAgent: z.optional(z.string()),
      lastActiveAt: z.optional(time),
      apps: z.array(appSchema),
    }),
  ),
  /** Apps the person let sign them in, with the identity they chose and the data they gave. */
  appChoices: z.array(
    z.extend(appSchema, {
      identity: z.object({ organizationScopedId: z.string() }),
      scopes: z.array(z.string()),
      chosenAt: time,
    }),
  ),
  /** Grants the apps hold: the identity they are for and the scopes they cover. */
  grants: z.array(
    z.extend(appSchema, {
      identityId: z.string(),
      scopes: z.array(z.string()),
      grantedAt: time,
    }),
  ),
  /** All of the account's activity, newest first, as the activity list shows it. */
  activity: z.array(activitySchema),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
