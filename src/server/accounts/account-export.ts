import {
  accountExportFormat,
  accountExportVersion,
  type AccountExport,
} from "../../common/api/account-export.ts";
import type { Activity } from "../../common/api/activity.ts";
import type { Caller } from "../access/caller.ts";
import { reachableIdentities } from "../access/identities.ts";
import type { OrganizationDocument } from "../access/organizations.ts";
import { toActivity } from "../activity/activity.ts";
import { withNames } from "../activity/names.ts";
import { HttpError } from "../http/errors.ts";
import type { EndedSession } from "../oidc/backchannel-logout.ts";
import {
  accountCreatedAt,
  applicationChoicesOf,
  blockRowsBinding,
  clientOwners,
  credentialRowsOf,
  grantPayloads,
  grantRowsOf,
  membershipRowsOf,
  type ExportedBlockRow,
  type ExportedCredentialRow,
} from "../store/account-export.ts";
import { activitiesOf } from "../store/activities.ts";
import { splitScopes } from "../store/application-choices.ts";
import type { Database } from "../store/database.ts";
import { findDocuments } from "../store/documents.ts";
import { sessionsOf } from "../store/oidc-models.ts";
import { pendingEmailVerifications, type EmailVerification } from "../store/email-verifications.ts";
import { liveSessionDevices, type SessionDevice } from "../store/session-devices.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import { primaryEmail, totpLastUsedAt } from "./account-passkeys.ts";
import { authenticatorName } from "./authenticators.ts";
import { passkeyProvider, type PasskeyData } from "./passkeys.ts";
import { recoveryCodesProvider } from "./recovery-codes.ts";
import { totpProvider } from "./totp.ts";

// The account's export (issue "Your data"): everything Vrata holds about the account, as the person
// may know it. Each part is built from the rows by naming what may be shown, field by field, so a
// field added to a row later never leaks into it: no secret, hash, key, token, session or cookie ID,
// and nothing an organization keeps for its admins alone (their notes, who blocked).

export interface ExportDeps {
  db: Database;
  providers: ProviderRegistry;
  /** The engine keeps a grant under the keyed hash of its ID. */
  secrets: Pick<InstanceSecrets, "tokenIds">;
}

const iso = (time: number) => new Date(time).toISOString();

/** How many activity entries are read at a time while the whole of it is exported. */
const activityBatch = 200;

function credentialsPart(
  rows: readonly ExportedCredentialRow[],
  pending: readonly EmailVerification[],
  providerName: (key: string) => string | undefined,
): AccountExport["credentials"] {
  const of = (provider: string) => rows.filter((row) => row.provider === provider);
  const [password] = of("password");
  const builtIn = new Set([
    "username",
    "email",
    "password",
    passkeyProvider,
    totpProvider,
    recoveryCodesProvider,
  ]);
  return {
    usernames: of("username").map((row) => ({ username: row.displayName, addedAt: iso(row.createdAt) })),
    emailAddresses: [
      ...of("email").map((row) => ({
        address: row.displayName,
        state: "verified" as const,
        primary: row === primaryEmail(rows),
        addedAt: iso(row.createdAt),
      })),
      // Addresses being added: the code that proves them is never exported.
      ...pending.map((verification) => ({
        address: verification.address,
        state: "pending" as const,
        primary: false,
        addedAt: iso(verification.createdAt),
      })),
    ],
    password: password
      ? {
          set: true,
          setAt: iso(password.createdAt),
          ...(password.updatedAt > password.createdAt ? { changedAt: iso(password.updatedAt) } : {}),
        }
      : { set: false },
    passkeys: of(passkeyProvider).map((row) => {
      const data = JSON.parse(row.data) as PasskeyData;
      const authenticator = authenticatorName(data.aaguid);
      return {
        name: row.displayName,
        ...(authenticator ? { authenticator } : {}),
        createdAt: iso(row.createdAt),
        ...(data.lastUsedAt === undefined ? {} : { lastUsedAt: iso(data.lastUsedAt) }),
        synced: data.multiDevice,
        backedUp: data.backedUp,
      };
    }),
    providers: rows
      .filter((row) => !builtIn.has(row.provider))
      .map((row) => {
        const name = providerName(row.provider);
        return {
          provider: row.provider,
          ...(name === undefined ? {} : { providerName: name }),
          name: row.displayName,
          linkedAt: iso(row.createdAt),
        };
      }),
    secondFactors: [
      ...of(totpProvider).map((row) => {
        const lastUsedAt = totpLastUsedAt(row);
        return {
          kind: "authenticatorApp" as const,
          addedAt: iso(row.createdAt),
          ...(lastUsedAt === undefined ? {} : { lastUsedAt: iso(lastUsedAt) }),
        };
      }),
      ...of(recoveryCodesProvider).map((row) => ({
        kind: "recoveryCodes" as const,
        addedAt: iso(row.updatedAt),
        unused: (JSON.parse(row.data) as { unused: unknown[] }).unused.length,
      })),
    ],
  };
}

/** Names of organizations and their applications, looked up once. */
async function organizationNamer(db: Database, organizationIds: Iterable<string>) {
  const organizations = new Map(
    (await findDocuments<OrganizationDocument>(db, "organizations", [...new Set(organizationIds)])).map(
      (row) => [row.id, row.document],
    ),
  );
  const organization = (id: string) => {
    const document = organizations.get(id);
    return document ? { id, name: document.name } : { id };
  };
  const application = (organizationId: string, id: string) => {
    const found = organizations.get(organizationId)?.applications.find((candidate) => candidate.id === id);
    return found ? { id, name: found.applicationTemplate.name } : { id };
  };
  return {
    organization,
    application,
    app: (organizationId: string, applicationId: string) => ({
      organization: organization(organizationId),
      application: application(organizationId, applicationId),
    }),
  };
}

const blockScope = (row: ExportedBlockRow): "identity" | "account" =>
  row.scope === "identity" ? "identity" : "account";
const blockView = (row: ExportedBlockRow) => ({
  scope: blockScope(row),
  since: iso(row.createdAt),
  note: row.userNote,
});

/**
 * The engine's sessions of the account: when each signed in, until when, the apps it signed in to, and
 * the browser it is in, as far as Vrata noted it (store/session-devices.ts).
 */
function sessionParts(payloads: readonly string[], devices: readonly SessionDevice[]) {
  const deviceOfPayload = new Map(devices.map((device) => [device.payload, device]));
  const sessions = payloads.map((payload) => ({
    ...(JSON.parse(payload) as EndedSession & { loginTs?: number; exp?: number }),
    device: deviceOfPayload.get(payload),
  }));
  const clientIds = sessions.flatMap((session) => Object.keys(session.authorizations ?? {}));
  return { sessions, clientIds };
}

/** All of the account's activity, newest first, named as the activity list names it. */
async function allActivity(db: Database, caller: Caller): Promise<Activity[]> {
  const all: Activity[] = [];
  let before: { createdAt: number; id: string } | undefined;
  for (;;) {
    const rows = await activitiesOf(db, caller.accountId, activityBatch, { before });
    all.push(...(await withNames(db, caller, rows.map(toActivity))));
    const last = rows.at(-1);
    if (rows.length < activityBatch || !last) return all;
    before = { createdAt: last.createdAt, id: last.id };
  }
}

export async function accountExport(
  deps: ExportDeps,
  caller: Caller,
  now = new Date(),
): Promise<AccountExport> {
  const { db } = deps;
  const { accountId } = caller;
  const createdAt = await accountCreatedAt(db, accountId);
  if (createdAt === undefined) throw new HttpError(404, "notFound", "no such account");

  const credentials = await credentialRowsOf(db, accountId);
  const pendingAddresses = await pendingEmailVerifications(db, accountId, Date.now());
  const { access, identities } = await reachableIdentities(db, accountId);
  const identityIds = identities.map((identity) => identity.id);
  const memberships = await membershipRowsOf(db, identityIds);
  const blocks = await blockRowsBinding(db, identityIds, accountId);
  const grants = await grantRowsOf(db, accountId);
  const choices = await applicationChoicesOf(db, accountId);
  const { sessions, clientIds } = sessionParts(
    await sessionsOf(db, [accountId]),
    await liveSessionDevices(db, accountId, Date.now()),
  );
  const storedGrantIds = grants.map((grant) => deps.secrets.tokenIds(grant.grantId));
  const storedGrants = await grantPayloads(db, storedGrantIds);
  const grantsStored = storedGrantIds.map((id) => {
    const payload = storedGrants.get(id);
    return (payload ? JSON.parse(payload) : {}) as { clientId?: string; openid?: { scope?: string } };
  });
  const owners = await clientOwners(db, [
    ...new Set([...clientIds, ...grantsStored.flatMap(({ clientId }) => (clientId ? [clientId] : []))]),
  ]);
  const names = await organizationNamer(db, [
    ...memberships.map((row) => row.organizationId),
    ...blocks.map((row) => row.organizationId),
    ...choices.map((row) => row.organizationId),
    ...[...owners.values()].map((owner) => owner.organizationId),
  ]);
  const appOfClient = (clientId: string) => {
    const owner = owners.get(clientId);
    return owner ? [names.app(owner.organizationId, owner.applicationId)] : [];
  };
  const listed = deps.providers.listed();

  return {
    format: accountExportFormat,
    version: accountExportVersion,
    exportedAt: now.toISOString(),
    account: { id: accountId, createdAt: iso(createdAt) },
    credentials: credentialsPart(
      credentials,
      pendingAddresses,
      (key) => listed.find((entry) => entry.key === key)?.name.en,
    ),
    identities: identities.map((identity) => {
      const { username, email, givenName, fullName, pictureUrl, description } = identity.document;
      return {
        id: identity.id,
        role: access.get(identity.id) ?? "user",
        createdByThisAccount: identity.creatorAccountId === accountId,
        document: { username, email, givenName, fullName, pictureUrl, description },
        memberships: memberships
          .filter((row) => row.identityId === identity.id)
          .map((row) => ({
            organization: names.organization(row.organizationId),
            organizationScopedId: row.id,
            status: row.active ? ("active" as const) : ("disabled" as const),
            joinedAt: iso(row.createdAt),
            ...(row.lastSignedInAt === null ? {} : { lastSignedInAt: iso(row.lastSignedInAt) }),
            applicationsUsed: row.applicationIds.map((id) => names.application(row.organizationId, id)),
            blocks: blocks
              .filter(
                (block) => block.identityId === identity.id && block.organizationId === row.organizationId,
              )
              .map(blockView),
          })),
      };
    }),
    // Blocks of the account through an identity it no longer reaches: the organization, not the identity.
    accountBlocks: blocks
      .filter((block) => !identityIds.includes(block.identityId))
      .map((block) => ({
        ...blockView(block),
        scope: "account" as const,
        organization: names.organization(block.organizationId),
      })),
    sessions: sessions.map((session) => ({
      ...(session.loginTs === undefined ? {} : { signedInAt: iso(session.loginTs * 1000) }),
      ...(session.exp === undefined ? {} : { expiresAt: iso(session.exp * 1000) }),
      ...(session.device && {
        userAgent: session.device.userAgent,
        lastActiveAt: iso(session.device.lastActiveAt),
      }),
      apps: Object.keys(session.authorizations ?? {}).flatMap(appOfClient),
    })),
    appChoices: choices.map((choice) => ({
      ...names.app(choice.organizationId, choice.applicationId),
      identity: { organizationScopedId: choice.membershipId },
      scopes: splitScopes(choice.scopes),
      chosenAt: iso(choice.chosenAt),
    })),
    grants: grants.flatMap((grant, index) => {
      const payload = grantsStored[index] ?? {};
      const [app] = payload.clientId ? appOfClient(payload.clientId) : [];
      if (!app) return [];
      return [
        {
          ...app,
          identityId: grant.identityId,
          scopes: splitScopes(payload.openid?.scope ?? ""),
          grantedAt: iso(grant.createdAt),
        },
      ];
    }),
    activity: await allActivity(db, caller),
  };
}
