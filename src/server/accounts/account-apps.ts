import type { Grant } from "oidc-provider";
import { displayName } from "../../common/api/identity.ts";
import type { ConnectedApp, ConnectedApps } from "../../common/api/account-sessions.ts";
import { isOpenIdScope, personalDataScopes } from "../../common/scopes.ts";
import { recordActivity } from "../activity/activity.ts";
import { HttpError } from "../http/errors.ts";
import type { EndedSession } from "../oidc/backchannel-logout.ts";
import { ownerOf } from "../oidc/client-extras.ts";
import { applicationOf } from "../organizations/applications.ts";
import { deleteApplicationChoice, splitScopes } from "../store/application-choices.ts";
import { findIdentities } from "../store/identities.ts";
import { sessionsWithKeysOf, takeOidcModel } from "../store/oidc-models.ts";
import { grantsOfAccount } from "../store/flows.ts";
import type { AccountSessionDeps } from "./account-sessions.ts";

// The apps of every organization the person gave an identity to, with what each was given, and
// "Disconnect": the app's grants end with every token they issued, and its next sign-in asks again.

export interface ConnectedAppDeps extends AccountSessionDeps {
  /** The console's own client: its app is shown, but disconnecting it would sign the page out. */
  consoleClientId: string;
}

/** A live grant of the account, with the app whose client holds it and the identity it speaks for. */
interface HeldGrant {
  grant: Grant;
  clientId: string;
  organizationId: string;
  applicationId: string;
  identityId: string;
  createdAt: number;
}

/** The account's grants that still exist, newest first. */
async function heldGrants({ db, provider }: ConnectedAppDeps, accountId: string): Promise<HeldGrant[]> {
  const held: HeldGrant[] = [];
  for (const { grantId, identityId, createdAt } of await grantsOfAccount(db, accountId)) {
    const grant = await provider.Grant.find(grantId);
    if (!grant?.clientId || grant.accountId !== accountId) continue;
    const client = await provider.Client.find(grant.clientId);
    if (!client) continue;
    held.push({ grant, clientId: grant.clientId, ...ownerOf(client), identityId, createdAt });
  }
  return held;
}

/** The app of these grants (of one application, newest first), as the account page shows it. */
async function appOf(
  deps: ConnectedAppDeps,
  grants: readonly HeldGrant[],
  names: ReadonlyMap<string, string>,
): Promise<ConnectedApp | undefined> {
  const [newest] = grants;
  if (!newest) return undefined;
  const application = await applicationOf(deps.db, newest.organizationId, newest.applicationId);
  const scopes = new Set(grants.flatMap(({ grant }) => splitScopes(grant.getOIDCScope())));
  return {
    id: newest.applicationId,
    organizationName: application.organizationName,
    applicationName: application.name,
    identityName: names.get(newest.identityId) ?? "",
    personalData: personalDataScopes.filter((scope) => scopes.has(scope)),
    offlineAccess: scopes.has("offline_access"),
    appScopes: application.appScopes.filter(({ name }) => !isOpenIdScope(name) && scopes.has(name)),
    connectedAt: new Date(newest.createdAt).toISOString(),
    console: grants.some(({ clientId }) => clientId === deps.consoleClientId),
  };
}

/** Every app of every organization that holds a grant of the account, most recently signed in to first. */
export async function listConnectedApps(deps: ConnectedAppDeps, accountId: string): Promise<ConnectedApps> {
  const grants = await heldGrants(deps, accountId);
  const identities = await findIdentities(deps.db, [...new Set(grants.map(({ identityId }) => identityId))]);
  const names = new Map(
    identities.map((identity) => [identity.id, displayName({ id: identity.id, ...identity.document })]),
  );
  const byApplication = Map.groupBy(grants, ({ applicationId }) => applicationId);
  const apps = await Promise.all([...byApplication.values()].map((ofApp) => appOf(deps, ofApp, names)));
  return { apps: apps.flatMap((app) => (app ? [app] : [])) };
}

/**
 * Disconnects the application: each of its grants of the account ends with every code, access token
 * and refresh token it issued (the store is where every instance looks them up), the identity and
 * scopes chosen for it are forgotten, and the app is told by back-channel logout of the sessions it
 * was part of.
 */
export async function disconnectApp(
  deps: ConnectedAppDeps,
  accountId: string,
  applicationId: string,
): Promise<ConnectedApps> {
  const grants = (await heldGrants(deps, accountId)).filter((held) => held.applicationId === applicationId);
  const [newest] = grants;
  if (!newest) throw new HttpError(404, "appNotConnected", "the app holds no grant of this account");
  if (grants.some(({ clientId }) => clientId === deps.consoleClientId))
    throw new HttpError(400, "consoleAppNotDisconnectable", "the console is disconnected by signing out");
  // Only the request that removed a grant goes on: an app disconnected twice at once is disconnected once.
  let removed = 0;
  for (const { grant } of grants) {
    if (!grant.jti) continue;
    if ((await takeOidcModel(deps.db, "Grant", deps.secrets.tokenIds(grant.jti))) !== undefined) removed++;
    await deps.provider.Grant.adapter.revokeByGrantId(grant.jti);
  }
  if (removed === 0) throw new HttpError(404, "appNotConnected", "the app was disconnected already");
  await deleteApplicationChoice(deps.db, accountId, applicationId);
  const clients = new Set(grants.map(({ clientId }) => clientId));
  const toldOf = (await sessionsWithKeysOf(deps.db, accountId)).map(({ payload }) => {
    const session = JSON.parse(payload) as EndedSession;
    const ofApp = Object.entries(session.authorizations ?? {}).filter(([clientId]) => clients.has(clientId));
    return { ...session, authorizations: Object.fromEntries(ofApp) };
  });
  await Promise.all(toldOf.map((session) => deps.logouts.announce(session)));
  const { organizationId } = newest;
  await recordActivity(deps.db, accountId, {
    type: "appDisconnect",
    identities: [{ id: newest.identityId }],
    organizations: [{ id: organizationId }],
    applications: [{ organizationId, applicationId }],
  });
  return listConnectedApps(deps, accountId);
}
