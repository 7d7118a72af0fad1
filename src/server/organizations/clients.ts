import type { ConfiguredClient, OrganizationApplication } from "../../common/api/organization.ts";
import type {
  AccessTokenType,
  BackendClient,
  PublicClient,
  ServiceClient,
} from "../../common/api/template.ts";
import type { Database } from "../store/database.ts";
import { syncOrganizationClients, type SyncedClient } from "../store/clients.ts";
import { filledOrNone } from "../templates/interpolate.ts";
import { grantedScopes } from "../../common/scopes.ts";
import { extraMetadata } from "../oidc/client-extras.ts";
import { tryClientKind, tryClientOf, tryScopesOf } from "./try-client.ts";

// The OAuth clients of an organization's applications, as oidc-provider sees them (reference §5.2).

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** The application's values; one not given yet (it needs configuration) is absent. */
export function valuesOf(application: Pick<OrganizationApplication, "values">): Map<string, string> {
  return new Map(
    application.values.filter(({ value }) => value !== "").map(({ name, value }) => [name, value]),
  );
}

/** URI templates with the application's values, each URI once; ones using a missing value are left out. */
function filledIn(application: OrganizationApplication, templates: readonly string[]): string[] {
  const values = valuesOf(application);
  return unique(templates.flatMap((uri) => filledOrNone(uri, values) ?? []));
}

/** The back-channel logout URI of a backend client, if it has one. */
function backchannelLogoutUri(
  application: OrganizationApplication,
  client: BackendClient,
): string | undefined {
  const template = client.backchannelLogoutUriTemplate;
  return template ? filledOrNone(template, valuesOf(application)) : undefined;
}

export function homepageOf(application: OrganizationApplication): string | undefined {
  const template = application.applicationTemplate.homepageTemplate;
  return template ? filledOrNone(template, valuesOf(application)) : undefined;
}

const loopbackHosts = new Set(["127.0.0.1", "[::1]", "localhost"]);
const onLoopback = (uri: string, withoutPort = false) => {
  const url = URL.parse(uri);
  return url?.protocol === "http:" && loopbackHosts.has(url.hostname) && (!withoutPort || url.port === "");
};

/**
 * A public client whose redirect URIs are all on loopback without a port is a native or command-line
 * app: it listens on whatever port it gets, and the engine takes any port there (RFC 8252 §7.3). Its
 * post-logout URIs must be on loopback too, as the engine asks of a native client.
 */
function nativeApplication(redirectUris: readonly string[], postLogoutRedirectUris: readonly string[]) {
  const native =
    redirectUris.length > 0 &&
    redirectUris.every((uri) => onLoopback(uri, true)) &&
    postLogoutRedirectUris.every((uri) => onLoopback(uri));
  return native ? { application_type: "native" } : {};
}

/** Every client of the application with the metadata oidc-provider needs. */
export function clientsOf(application: OrganizationApplication): SyncedClient[] {
  const template = application.applicationTemplate;
  const homepage = homepageOf(application);
  const common = (client: {
    additionalScopes: string[];
    accessTokenLifespan: number;
    idTokenLifespan: number;
    refreshTokenLifespan?: number | undefined;
    accessTokenType: AccessTokenType;
  }) => {
    const scopes = grantedScopes(template, client.additionalScopes);
    return {
      scope: scopes.openId.join(" "),
      ...(homepage ? { client_uri: homepage } : {}),
      ...extraMetadata({
        access: client.accessTokenLifespan,
        id: client.idTokenLifespan,
        refresh: client.refreshTokenLifespan,
        accessTokenType: client.accessTokenType,
        appScopes: scopes.app,
      }),
    };
  };
  const find = <C extends { id?: string | undefined }>(clients: C[], id: string): C => {
    const client = clients.find((candidate) => candidate.id === id);
    if (!client) throw new Error(`template client ${id} is missing from the application's copy`);
    return client;
  };
  // What the engine needs of every client that signs people in.
  const signIn = (client: PublicClient) => ({
    redirect_uris: filledIn(application, client.redirectUriTemplates),
    post_logout_redirect_uris: filledIn(application, client.postLogoutRedirectUriTemplates),
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });

  const clients = [
    ...application.clientsPublic.map(({ id, templateClientId }) => {
      const client = find(template.clientsPublic, templateClientId);
      const uris = signIn(client);
      return {
        id,
        kind: "public",
        metadata: {
          ...common(client),
          ...uris,
          ...nativeApplication(uris.redirect_uris, uris.post_logout_redirect_uris),
          token_endpoint_auth_method: "none",
        },
      };
    }),
    ...application.clientsBackend.map(({ id, templateClientId }) => {
      const client = find(template.clientsBackend, templateClientId);
      const backchannel = backchannelLogoutUri(application, client);
      return {
        id,
        kind: "backend",
        metadata: {
          ...common(client),
          ...signIn(client),
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
          // Logout tokens name the session that ended, so the app can end just that one.
          ...(backchannel
            ? { backchannel_logout_uri: backchannel, backchannel_logout_session_required: true }
            : {}),
        },
      };
    }),
    ...application.clientsService.map(({ id, templateClientId }) => {
      const client = find(template.clientsService, templateClientId);
      return {
        id,
        kind: "service",
        metadata: {
          ...common(client),
          redirect_uris: [],
          grant_types: ["client_credentials"],
          response_types: [],
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        },
      };
    }),
  ].map((client) => ({
    ...client,
    applicationId: application.id,
    // A client that signs people in but has no redirect URI yet (each uses a value the app lacks)
    // is off until its organization gives the value.
    active: application.active && !(client.kind !== "service" && client.metadata.redirect_uris.length === 0),
  }));
  const tryClient = tryClientOf(
    application,
    clients.some((client) => client.kind !== "service" && client.active),
  );
  return tryClient ? [...clients, tryClient] : clients;
}

/** The scopes a client may ask for; a service client gets no person's data, so no OpenID scope. */
function askableScopes(
  application: OrganizationApplication,
  client: PublicClient | ServiceClient,
  service = false,
) {
  const { openId, app } = grantedScopes(application.applicationTemplate, client.additionalScopes);
  return service ? app : [...openId, ...app];
}

/** What an app's admins configure a client that signs people in with. */
function configuredSignIn(application: OrganizationApplication, client: PublicClient) {
  return {
    scopes: askableScopes(application, client),
    redirectUris: filledIn(application, client.redirectUriTemplates),
    postLogoutRedirectUris: filledIn(application, client.postLogoutRedirectUriTemplates),
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
  };
}

/**
 * The application's clients as its admins configure the app: IDs, redirect and sign-out URIs,
 * authentication.
 */
export function configuredClients(application: OrganizationApplication): ConfiguredClient[] {
  const template = application.applicationTemplate;
  const byTemplateId = <C extends { id?: string | undefined }>(clients: C[], id: string) =>
    clients.find((candidate) => candidate.id === id);
  return [
    ...application.clientsPublic.flatMap(({ id, templateClientId }) => {
      const client = byTemplateId(template.clientsPublic, templateClientId);
      if (!client) return [];
      return [
        {
          kind: "public" as const,
          id,
          description: client.description,
          ...configuredSignIn(application, client),
        },
      ];
    }),
    ...application.clientsBackend.flatMap(({ id, templateClientId }) => {
      const client = byTemplateId(template.clientsBackend, templateClientId);
      if (!client) return [];
      return [
        {
          kind: "backend" as const,
          id,
          description: client.description,
          ...configuredSignIn(application, client),
          tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
          backchannelLogoutUri: backchannelLogoutUri(application, client),
        },
      ];
    }),
    ...application.clientsService.flatMap(({ id, templateClientId }) => {
      const client = byTemplateId(template.clientsService, templateClientId);
      if (!client) return [];
      return [
        {
          kind: "service" as const,
          id,
          description: client.description,
          redirectUris: [],
          postLogoutRedirectUris: [],
          requirePushedAuthorizationRequests: false,
          tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
          scopes: askableScopes(application, client, true),
        },
      ];
    }),
  ];
}

/**
 * Makes the stored clients match the organization's applications: added, changed, disabled, removed.
 * A disabled organization's clients are all inactive: its apps get no sign-in and no tokens.
 */
export async function syncClients(
  db: Database,
  organizationId: string,
  applications: readonly OrganizationApplication[],
  organizationActive = true,
): Promise<void> {
  const clients = applications
    .flatMap(clientsOf)
    .map((client) => ({ ...client, active: client.active && organizationActive }));
  await syncOrganizationClients(db, organizationId, clients);
}

/**
 * What the console's "Try signing in" runs the app's sign-in with: its test client while that can sign
 * people in (the organization and the app are active, a sign-in client has its redirect URIs).
 */
export function trySignInOf(
  application: OrganizationApplication,
  organizationActive: boolean,
): { clientId: string; scopes: string[] } | undefined {
  const client = clientsOf(application).find((candidate) => candidate.kind === tryClientKind);
  const scopes = tryScopesOf(application);
  if (!organizationActive || !client?.active || !scopes) return undefined;
  return { clientId: client.id, scopes: [...scopes.openId, ...scopes.app] };
}
