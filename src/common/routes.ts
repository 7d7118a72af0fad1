// The route table of spec §2: every route by name. The server registers its handlers from it and the
// web router is built from it, so a path is written in exactly one place.
//
// - `page`: a GET on the bare path serves a page (the SPA, or a fixed document such as /context.json).
// - `api`: the route is an API call; it answers under `/api` + path, and on the bare path too when it
//   is not also a page.
// - `view`: the page is rendered by the web app (the server answers with the SPA's HTML).
// - `card`: a page a person reaches from an app (a view, or the engine's error page), drawn as one card
//   without the console; the server answers it with the web app's light page, which holds only these.
// - `formPost`: a browser also loads the page by posting a form to it (SAML's HTTP-POST binding), so
//   its errors are pages for that POST too.
// - `params`: the format of each `:param` that is not one of Vrata's IDs.

import { flowIdPattern, idPattern, linkTokenPattern, providerKeyPattern } from "./ids.ts";

export const paramFormats = {
  id: idPattern,
  flowId: flowIdPattern,
  providerKey: providerKeyPattern,
  linkToken: linkTokenPattern,
};
export type ParamFormat = keyof typeof paramFormats;

export interface RouteDefinition {
  readonly path: string;
  readonly page?: boolean;
  readonly api?: boolean;
  readonly view?: boolean;
  readonly card?: boolean;
  readonly formPost?: boolean;
  readonly params?: Readonly<Record<string, ParamFormat>>;
}

const page = (path: string): RouteDefinition => ({ path, page: true });
const view = (path: string): RouteDefinition => ({ path, page: true, view: true });
const api = (path: string): RouteDefinition => ({ path, api: true });
const viewAndApi = (path: string): RouteDefinition => ({ path, page: true, view: true, api: true });
const card = (route: RouteDefinition): RouteDefinition => ({ ...route, card: true });
const ofFlow = (route: RouteDefinition, param = "id"): RouteDefinition => ({
  ...route,
  params: { [param]: "flowId" },
});
const ofLink = (route: RouteDefinition): RouteDefinition => ({ ...route, params: { token: "linkToken" } });
const ofProvider = (route: RouteDefinition): RouteDefinition => ({
  ...route,
  params: { provider: "providerKey" },
});

export const routes = {
  Home: view("/"),
  // A browser asking for HTML gets the page showing the text; other clients get the plain text.
  License: card(viewAndApi("/LICENSE")),
  Notice: card(viewAndApi("/NOTICE")),
  /** About this instance: where "Powered by Vrata" leads. */
  About: card(viewAndApi("/about")),
  Context: page("/context.json"),

  OIDCAuthorize: card(page("/auth/oidc/authorize")),
  /** Where the engine picks an authorization request up again once its flow has finished. */
  OIDCResume: card(ofFlow({ path: "/auth/oidc/authorize/:uid" }, "uid")),
  OIDCToken: api("/auth/oidc/token"),
  /** Pushed authorization requests (RFC 9126): a client posts its request here first. */
  OIDCPar: api("/auth/oidc/par"),
  // RP-initiated logout: the engine asks the person on this page, takes the answer at /confirm and,
  // when the app named no post-logout redirect URI, says so at /success.
  OIDCEndSession: card(viewAndApi("/auth/oidc/logout")),
  OIDCEndSessionConfirm: api("/auth/oidc/logout/confirm"),
  OIDCEndSessionSuccess: card(view("/auth/oidc/logout/success")),
  OIDCRevoke: api("/auth/oidc/revoke"),
  OIDCIntrospect: api("/auth/oidc/introspect"),
  OIDCUserinfo: api("/auth/oidc/userinfo"),
  OIDCKeys: api("/.well-known/jwks.json"),
  OIDCDiscovery: api("/.well-known/openid-configuration"),
  OAuthDiscovery: api("/.well-known/oauth-authorization-server"),

  AuthSignout: api("/auth/signout"),
  /** Where a provider sends the browser back: OIDC with a GET, SAML posting the IdP's form. */
  AuthThirdPartyProvider: card(ofProvider({ ...page("/auth/provider/:provider"), formPost: true })),
  SAMLMetadata: ofProvider(api("/samlMetadata/:provider")),
  /** The key providers that take private_key_jwt verify Vrata's client assertions with (a JWKS). */
  ProviderJwks: api("/providerJwks"),
  AuthFlowGet: card(ofFlow(viewAndApi("/auth/:id"))),
  AuthFlowProviderStart: ofFlow(api("/auth/providerStart/:id")),
  AuthFlowPasskeyGetStart: ofFlow(api("/auth/passkeyGetStart/:id")),
  AuthFlowPasskeyGetComplete: ofFlow(api("/auth/passkeyGetComplete/:id")),
  AuthFlowPasskeyCreateStart: ofFlow(api("/auth/passkeyCreateStart/:id")),
  AuthFlowPasskeyCreateComplete: ofFlow(api("/auth/passkeyCreateComplete/:id")),
  AuthFlowPasswordStart: ofFlow(api("/auth/passwordStart/:id")),
  AuthFlowPasswordComplete: ofFlow(api("/auth/passwordComplete/:id")),
  AuthFlowCodeStart: ofFlow(api("/auth/codeStart/:id")),
  AuthFlowCodeComplete: ofFlow(api("/auth/codeComplete/:id")),
  AuthFlowRestartAuth: ofFlow(api("/auth/restartAuth/:id")),
  AuthFlowDecline: ofFlow(api("/auth/decline/:id")),
  AuthFlowChooseIdentity: ofFlow(api("/auth/chooseIdentity/:id")),
  AuthFlowRedirect: ofFlow(api("/auth/redirect/:id")),
  /** A sign-in of an account pending deletion keeps the account and goes on. */
  AuthFlowDeletionCancel: ofFlow(api("/auth/deletionCancel/:id")),
  // The second factor after the first (an authenticator app's code, a recovery code; a passkey goes
  // through passkeyGetStart/Complete), and setting one up when the organization requires it.
  AuthFlowTotpComplete: ofFlow(api("/auth/totpComplete/:id")),
  AuthFlowRecoveryCodeComplete: ofFlow(api("/auth/recoveryCodeComplete/:id")),
  AuthFlowTotpSetUpStart: ofFlow(api("/auth/totpSetUpStart/:id")),
  AuthFlowTotpSetUpComplete: ofFlow(api("/auth/totpSetUpComplete/:id")),

  ApplicationTemplateList: viewAndApi("/a"),
  ApplicationTemplateCreate: viewAndApi("/a/create"),
  ApplicationTemplateGet: viewAndApi("/a/:id"),
  ApplicationTemplateUpdate: api("/a/update/:id"),

  OrganizationList: viewAndApi("/o"),
  OrganizationCreate: viewAndApi("/o/create"),
  OrganizationGet: viewAndApi("/o/:id"),
  OrganizationUpdate: api("/o/update/:id"),
  OrganizationApp: viewAndApi("/o/app/:id/:appId"),
  /** Where "Try signing in" comes back to: the app's test client's only redirect URI. */
  OrganizationAppTry: view("/o/try/:id/:appId"),
  OrganizationIdentity: viewAndApi("/o/identity/:id/:identityId"),
  OrganizationUsers: viewAndApi("/o/users/:id"),
  OrganizationBlockUser: viewAndApi("/o/block/:id/:identityId"),
  OrganizationBlockedStatus: api("/o/blocked/:id/:identityId"),
  OrganizationActivity: viewAndApi("/o/activity/:id"),
  OrganizationActivityGet: viewAndApi("/o/activity/:id/:activityId"),
  OrganizationInvitations: api("/o/invitations/:id"),
  OrganizationInvite: api("/o/invite/:id"),
  OrganizationInvitationWithdraw: api("/o/withdraw/:id/:invitationId"),
  OrganizationInviteByAddress: api("/o/inviteByAddress/:id"),
  /** An app connected in one step: its template, its organization (new or administered) and its client. */
  ConnectApp: viewAndApi("/start"),

  /** Whether the process serves at all, and whether it can serve requests (store reachable, migrated). */
  HealthLive: api("/health/live"),
  HealthReady: api("/health/ready"),
  /** Prometheus metrics, for a scraper holding the metrics token (README "Metrics"). */
  Metrics: api("/metrics"),

  /** The signed-in person's account: its ways to sign in. */
  Account: viewAndApi("/account"),
  AccountPasskeyCreateStart: api("/account/passkeyCreateStart"),
  AccountPasskeyCreateComplete: api("/account/passkeyCreateComplete"),
  AccountCredentialRename: api("/account/rename/:id"),
  AccountCredentialRemove: api("/account/remove/:id"),
  /** An authenticator app as a second factor: its secret made, then confirmed with a first code. */
  AccountTotpSetUpStart: api("/account/totpSetUpStart"),
  AccountTotpSetUpComplete: api("/account/totpSetUpComplete"),
  /** New recovery codes, shown once; the earlier ones stop working. */
  AccountRecoveryCodesRegenerate: api("/account/recoveryCodes"),
  /** Starts linking a third-party provider: the person signs in there, and comes back to the account page. */
  AccountProviderLinkStart: ofProvider(api("/account/providerLinkStart/:provider")),
  /** The account's security activity: its sign-ins and changes to its ways in, sessions and apps. */
  AccountActivity: api("/account/activity"),
  /** Everything Vrata holds about the account, as a JSON download (README "Your data: export"). */
  AccountExport: api("/account/export"),
  /** The browsers where the account is signed in; one signed out, or every one but the caller's. */
  AccountSessions: api("/account/sessions"),
  AccountSessionEnd: api("/account/sessions/end/:id"),
  AccountSessionsEndOthers: api("/account/sessions/endOthers"),
  /** The apps holding a grant of the account; one disconnected (its grants and tokens end). */
  AccountApps: api("/account/apps"),
  AccountAppDisconnect: api("/account/apps/disconnect/:id"),
  /** The account's deletion: whether one is pending, scheduled (after a fresh sign-in) or cancelled. */
  AccountDeletion: api("/account/deletion"),
  AccountDelete: api("/account/delete"),
  AccountDeleteCancel: api("/account/deleteCancel"),
  /** The password set, changed or removed (the current one, or a fresh sign-in, proves the person). */
  AccountPasswordSet: api("/account/password"),
  AccountPasswordRemove: api("/account/passwordRemove"),
  /** E-mail addresses: a code sent to a new one, typed to add it; made primary (removed: AccountCredentialRemove). */
  AccountEmailAdd: api("/account/emailAdd"),
  AccountEmailVerify: api("/account/emailVerify/:id"),
  AccountEmailCancel: api("/account/emailCancel/:id"),
  AccountEmailPrimary: api("/account/emailPrimary/:id"),

  ActivityList: viewAndApi("/activity"),
  ActivityGet: viewAndApi("/activity/:id"),

  IdentityList: viewAndApi("/i"),
  IdentityCreate: viewAndApi("/i/create"),
  /** Identities the caller may pick by name (admins, invitations): `?q=&limit=`. */
  IdentitySearch: api("/i/search"),
  IdentityGet: viewAndApi("/i/:id"),
  IdentityUpdate: api("/i/update/:id"),
  IdentityInvitations: api("/i/invitations/:id"),
  IdentityInvitationAccept: api("/i/accept/:id/:invitationId"),
  IdentityInvitationDecline: api("/i/decline/:id/:invitationId"),

  /** The link of an invitation sent by e-mail: whoever signs in with it answers with an identity. */
  InvitationGet: ofLink(viewAndApi("/invitation/:token")),
  InvitationAccept: ofLink(api("/invitation/accept/:token")),
  InvitationDecline: ofLink(api("/invitation/decline/:token")),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

const paramSyntax = /:([A-Za-z]+)/g;

/** The `:param` names of a route's path, each with the pattern its values must match. */
export function paramPatterns(route: RouteDefinition): [string, RegExp][] {
  return [...route.path.matchAll(paramSyntax)].map(([, name = ""]) => [
    name,
    paramFormats[route.params?.[name] ?? "id"],
  ]);
}

/** The prefix under which every API route also answers. */
export const apiPrefix = "/api";

/** The path of an API route under the `/api` prefix. */
export function apiPath(name: RouteName): string {
  return apiPrefix + routes[name].path;
}

/**
 * Fills the `:param` segments of a route's path. Values are URL-encoded, so an ID can never change the
 * shape of the path.
 */
export function pathFor(name: RouteName, params: Record<string, string> = {}): string {
  return routes[name].path.replace(paramSyntax, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing route parameter "${key}" for ${name}`);
    return encodeURIComponent(value);
  });
}
