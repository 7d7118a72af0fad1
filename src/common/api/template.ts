import { z } from "zod/mini";
import { defaultIdScopes } from "../scopes.ts";
import { appScopeSchema } from "./app-scope.ts";
import { ownAdminIdentitiesSchema } from "./summary.ts";
import { idText, typedText } from "./text.ts";

// Application templates (spec §2-§3, reference §2.4 and §9): reusable app definitions that
// organizations add with their own variable values.

/** A scope as typed; what it may be is checked with the template (common/scopes.ts), at its field. */
const scopeToken = typedText(200).check(z.minLength(1));
/** The longest token lifespan a client may have, in seconds: ten years. */
export const maxLifespanSeconds = 10 * 365 * 24 * 3600;
const lifespan = z.int().check(z.positive(), z.lte(maxLifespanSeconds));
/**
 * How long a refresh token of a client without a refresh lifespan lasts unused: fourteen days. Each use
 * gives the app a new one that lasts as long again, so an app in use stays signed in, while one left
 * unused is signed out (RFC 9700 §4.14.2).
 */
export const defaultRefreshTokenLifespanSeconds = 14 * 24 * 3600;

export const accessTokenTypes = ["hmac", "jwt"] as const;
export type AccessTokenType = (typeof accessTokenTypes)[number];
export const tokenEndpointAuthMethods = ["client_secret_basic", "client_secret_post"] as const;

const clientBase = {
  /** Assigned by the server; absent for a client being added. */
  id: z.optional(idText()),
  description: z._default(typedText(1000), ""),
  additionalScopes: z._default(z.array(scopeToken).check(z.maxLength(50)), []),
  accessTokenType: z._default(z.enum(accessTokenTypes), "hmac"),
  /** Seconds. */
  accessTokenLifespan: z._default(lifespan, 3600),
  idTokenLifespan: z._default(lifespan, 3600),
  /** Seconds a refresh token lasts unused; defaultRefreshTokenLifespanSeconds without it. */
  refreshTokenLifespan: z.optional(lifespan),
};

/** A URI with `{variable}` names in it, filled in with an organization's values. */
const uriTemplate = typedText(2000);

/**
 * Settings of the clients that sign people in that came after the first templates were stored: a
 * stored client without them has their defaults.
 */
const signInSettings = {
  /** Where the app may send people after they sign out (RP-initiated logout). */
  postLogoutRedirectUriTemplates: z._default(
    z.array(uriTemplate.check(z.minLength(1))).check(z.maxLength(20)),
    [],
  ),
  /** Sign-in requests must be pushed first (RFC 9126); ones sent only through the browser are refused. */
  requirePushedAuthorizationRequests: z._default(z.boolean(), false),
};
const backendSettings = {
  /** Where the app's server is told that a session of a person ended (back-channel logout); "" for none. */
  backchannelLogoutUriTemplate: z._default(uriTemplate, ""),
};
export const signInSettingDefaults = z.object(signInSettings).parse({});
export const backendSettingDefaults = z.object(backendSettings).parse({});

export const publicClientSchema = z.strictObject({
  ...clientBase,
  redirectUriTemplates: z.array(uriTemplate.check(z.minLength(1))).check(z.minLength(1), z.maxLength(20)),
  ...signInSettings,
});
export const backendClientSchema = z.extend(publicClientSchema, {
  tokenEndpointAuthMethod: z._default(z.enum(tokenEndpointAuthMethods), "client_secret_basic"),
  ...backendSettings,
});
export const serviceClientSchema = z.strictObject({
  ...clientBase,
  tokenEndpointAuthMethod: z._default(z.enum(tokenEndpointAuthMethods), "client_secret_basic"),
});

export const variableSchema = z.strictObject({
  name: typedText(100).check(z.minLength(1)),
  description: z._default(typedText(1000), ""),
  /**
   * The value an organization's app gets when the variable is added to a template it already uses;
   * without one ("" or absent), such an app needs the organization to give it.
   */
  default: z.optional(typedText(2000)),
});

/** What an admin edits; the server fills in IDs and checks the rules of reference §9.1. */
export const templateFieldsSchema = z.strictObject({
  name: typedText(200).check(z.minLength(1)),
  description: z._default(typedText(4000), ""),
  homepageTemplate: z._default(typedText(2000), ""),
  idScopes: z._default(z.array(scopeToken).check(z.maxLength(50)), defaultIdScopes),
  /** Scopes besides the OpenID ones that the template's clients may be granted. */
  appScopes: z._default(z.array(appScopeSchema).check(z.maxLength(50)), []),
  variables: z._default(z.array(variableSchema).check(z.maxLength(50)), []),
  clientsPublic: z._default(z.array(publicClientSchema).check(z.maxLength(20)), []),
  clientsBackend: z._default(z.array(backendClientSchema).check(z.maxLength(20)), []),
  clientsService: z._default(z.array(serviceClientSchema).check(z.maxLength(20)), []),
  /** Identity IDs; the editing identity is always kept. */
  admins: z._default(z.array(idText()).check(z.maxLength(100)), []),
});
export type TemplateFields = z.infer<typeof templateFieldsSchema>;
export type PublicClient = z.infer<typeof publicClientSchema>;
export type BackendClient = z.infer<typeof backendClientSchema>;
export type ServiceClient = z.infer<typeof serviceClientSchema>;

export const templateUpdateSchema = z.extend(templateFieldsSchema, {
  version: z.int().check(z.positive()),
  /** The count the template was read with may be sent back as it was; it changes nothing. */
  organizationsUsing: z.optional(z.int()),
});

export const templateSchema = z.extend(templateFieldsSchema, {
  id: z.string(),
  version: z.int(),
  canUpdate: z.boolean(),
  /** Admins only: how many organizations have added the template, whose apps follow its changes. */
  organizationsUsing: z.optional(z.int()),
  ownAdminIdentities: ownAdminIdentitiesSchema,
});
export type Template = z.infer<typeof templateSchema>;
