// The route table of spec §2: every route by name. The server registers its handlers from it and the
// web router is built from it, so a path is written in exactly one place.
//
// - `page`: a GET on the bare path serves a page (the SPA, or a fixed document such as /LICENSE).
// - `api`: the route is an API call; it answers under `/api` + path, and on the bare path too when it
//   is not also a page.
// - `view`: the page is rendered by the web app (the server answers with the SPA's HTML).

export interface RouteDefinition {
  readonly path: string;
  readonly page?: boolean;
  readonly api?: boolean;
  readonly view?: boolean;
}

const page = (path: string): RouteDefinition => ({ path, page: true });
const view = (path: string): RouteDefinition => ({ path, page: true, view: true });
const api = (path: string): RouteDefinition => ({ path, api: true });
const viewAndApi = (path: string): RouteDefinition => ({ path, page: true, view: true, api: true });

export const routes = {
  Home: view("/"),
  License: page("/LICENSE"),
  Notice: page("/NOTICE"),
  Context: page("/context.json"),

  OIDCAuthorize: page("/auth/oidc/authorize"),
  OIDCToken: api("/auth/oidc/token"),
  OIDCRevoke: api("/auth/oidc/revoke"),
  OIDCIntrospect: api("/auth/oidc/introspect"),
  OIDCUserinfo: api("/auth/oidc/userinfo"),
  OIDCKeys: api("/.well-known/jwks.json"),
  OIDCDiscovery: api("/.well-known/openid-configuration"),
  OAuthDiscovery: api("/.well-known/oauth-authorization-server"),

  AuthSignout: api("/auth/signout"),
  AuthThirdPartyProvider: page("/auth/provider/:provider"),
  SAMLMetadata: api("/samlMetadata/:provider"),
  AuthFlowGet: viewAndApi("/auth/:id"),
  AuthFlowProviderStart: api("/auth/providerStart/:id"),
  AuthFlowPasskeyGetStart: api("/auth/passkeyGetStart/:id"),
  AuthFlowPasskeyGetComplete: api("/auth/passkeyGetComplete/:id"),
  AuthFlowPasskeyCreateStart: api("/auth/passkeyCreateStart/:id"),
  AuthFlowPasskeyCreateComplete: api("/auth/passkeyCreateComplete/:id"),
  AuthFlowPasswordStart: api("/auth/passwordStart/:id"),
  AuthFlowPasswordComplete: api("/auth/passwordComplete/:id"),
  AuthFlowCodeStart: api("/auth/codeStart/:id"),
  AuthFlowCodeComplete: api("/auth/codeComplete/:id"),
  AuthFlowRestartAuth: api("/auth/restartAuth/:id"),
  AuthFlowDecline: api("/auth/decline/:id"),
  AuthFlowChooseIdentity: api("/auth/chooseIdentity/:id"),
  AuthFlowRedirect: api("/auth/redirect/:id"),

  ApplicationTemplateList: viewAndApi("/a"),
  ApplicationTemplateCreate: viewAndApi("/a/create"),
  ApplicationTemplateGet: viewAndApi("/a/:id"),
  ApplicationTemplateUpdate: api("/a/update/:id"),

  OrganizationList: viewAndApi("/o"),
  OrganizationCreate: viewAndApi("/o/create"),
  OrganizationGet: viewAndApi("/o/:id"),
  OrganizationUpdate: api("/o/update/:id"),
  OrganizationApp: viewAndApi("/o/app/:id/:appId"),
  OrganizationIdentity: viewAndApi("/o/identity/:id/:identityId"),
  OrganizationUsers: viewAndApi("/o/users/:id"),
  OrganizationBlockUser: viewAndApi("/o/block/:id/:identityId"),
  OrganizationBlockedStatus: api("/o/blocked/:id/:identityId"),
  OrganizationActivity: viewAndApi("/o/activity/:id"),
  OrganizationActivityGet: viewAndApi("/o/activity/:id/:activityId"),
  OrganizationInvitations: api("/o/invitations/:id"),
  OrganizationInvite: api("/o/invite/:id"),
  OrganizationInvitationWithdraw: api("/o/withdraw/:id/:invitationId"),

  ActivityList: viewAndApi("/activity"),
  ActivityGet: viewAndApi("/activity/:id"),

  IdentityList: viewAndApi("/i"),
  IdentityCreate: viewAndApi("/i/create"),
  IdentityGet: viewAndApi("/i/:id"),
  IdentityUpdate: api("/i/update/:id"),
  IdentityInvitations: api("/i/invitations/:id"),
  IdentityInvitationAccept: api("/i/accept/:id/:invitationId"),
  IdentityInvitationDecline: api("/i/decline/:id/:invitationId"),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

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
  return routes[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing route parameter "${key}" for ${name}`);
    return encodeURIComponent(value);
  });
}
