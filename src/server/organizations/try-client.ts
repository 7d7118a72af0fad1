import type { OrganizationApplication } from "../../common/api/organization.ts";
import { grantedScopes } from "../../common/scopes.ts";
import { derivedId } from "../ids.ts";
import { extraMetadata } from "../oidc/client-extras.ts";
import type { SyncedClient } from "../store/clients.ts";

// "Try signing in": the console runs an app's sign-in as the app's test client, so that its admins see
// what the app would get before writing any code. The test client is a public client (PKCE, no secret)
// of the same application: the engine resolves identities, grants and `sub` per application, so the
// test client sees the person exactly as the app's own clients do. Its only redirect URI is the
// console's page on Vrata's own origin (oidc/clients.ts fills it in), never one of the app's: the
// app's real clients accept nothing more than before.

export const tryClientKind = "try";

/** Short-lived tokens: they are looked at once, on the page that asked for them. */
const tryTokenLifespan = 300;

/** The test client's ID: it follows from the application's, so it needs no record of its own. */
export const tryClientIdOf = (applicationId: string): string => derivedId("try-client", applicationId);

/**
 * What the test client may ask for: every scope of the app's sign-in clients, but a refresh token (a
 * look at the tokens needs none). Nothing for an app that signs nobody in.
 */
export function tryScopesOf(
  application: OrganizationApplication,
): { openId: string[]; app: string[] } | undefined {
  const template = application.applicationTemplate;
  const signIn = [...template.clientsPublic, ...template.clientsBackend];
  if (signIn.length === 0) return undefined;
  const scopes = grantedScopes(
    template,
    signIn.flatMap((client) => client.additionalScopes),
  );
  return { ...scopes, openId: scopes.openId.filter((scope) => scope !== "offline_access") };
}

/**
 * The application's test client, when the app signs people in: every scope its sign-in clients may
 * ask for, and a sign-in only while one of them can (the app and its redirect URIs are configured).
 */
export function tryClientOf(
  application: OrganizationApplication,
  signInClientsActive: boolean,
): SyncedClient | undefined {
  const scopes = tryScopesOf(application);
  if (!scopes) return undefined;
  return {
    id: tryClientIdOf(application.id),
    applicationId: application.id,
    kind: tryClientKind,
    active: application.active && signInClientsActive,
    metadata: {
      scope: scopes.openId.join(" "),
      ...extraMetadata({
        access: tryTokenLifespan,
        id: tryTokenLifespan,
        accessTokenType: "hmac",
        appScopes: scopes.app,
      }),
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  };
}
