import { z } from "zod";
import { ownAdminIdentitiesSchema } from "./summary.ts";
import { idText, typedText } from "./text.ts";

// Application templates (spec §2-§3, reference §2.4 and §9): reusable app definitions that
// organizations add with their own variable values.

/** A scope as typed; what it may be is checked with the template (common/scopes.ts), at its field. */
const scopeToken = typedText(200).min(1);
/** The longest token lifespan a client may have, in seconds: ten years. */
export const maxLifespanSeconds = 10 * 365 * 24 * 3600;
const lifespan = z.number().int().positive().max(maxLifespanSeconds);

export const accessTokenTypes = ["hmac", "jwt"] as const;
export type AccessTokenType = (typeof accessTokenTypes)[number];
export const tokenEndpointAuthMethods = ["client_secret_basic", "client_secret_post"] as const;

const clientBase = {
  /** Assigned by the server; absent for a client being added. */
  id: idText().optional(),
  description: typedText(1000).default(""),
  additionalScopes: z.array(scopeToken).max(50).default([]),
  accessTokenType: z.enum(accessTokenTypes).default("hmac"),
  /** Seconds. */
  accessTokenLifespan: lifespan.default(3600),
  idTokenLifespan: lifespan.default(3600),
  /** Seconds; refresh tokens never expire without it. */
  refreshTokenLifespan: lifespan.optional(),
};

/** A URI with `{variable}` names in it, filled in with an organization's values. */
const uriTemplate = typedText(2000);

/**
 * Settings of the clients that sign people in that came after the first templates were stored: a
 * stored client without them has their defaults.
 */
const signInSettings = {
  /** Where the app may send people after they sign out (RP-initiated logout). */
  postLogoutRedirectUriTemplates: z.array(uriTemplate.min(1)).max(20).default([]),
  /** Sign-in requests must be pushed first (RFC 9126); ones sent only through the browser are refused. */
  requirePushedAuthorizationRequests: z.boolean().default(false),
};
const backendSettings = {
  /** Where the app's server is told that a session of a person ended (back-channel logout); "" for none. */
  backchannelLogoutUriTemplate: uriTemplate.default(""),
};
export const signInSettingDefaults = z.object(signInSettings).parse({});
export const backendSettingDefaults = z.object(backendSettings).parse({});

export const publicClientSchema = z.strictObject({
  ...clientBase,
  redirectUriTemplates: z.array(uriTemplate.min(1)).min(1).max(20),
  ...signInSettings,
});
export const backendClientSchema = publicClientSchema.extend({
  tokenEndpointAuthMethod: z.enum(tokenEndpointAuthMethods).default("client_secret_basic"),
  ...backendSettings,
});
export const serviceClientSchema = z.strictObject({
  ...clientBase,
  tokenEndpointAuthMethod: z.enum(tokenEndpointAuthMethods).default("client_secret_basic"),
});

/** A scope the app defines for its own API, described to the people it asks, in each language. */
export const appScopeSchema = z.strictObject({
  name: typedText(200),
  description: z
    .strictObject({ en: typedText(500).default(""), sl: typedText(500).default("") })
    .default({ en: "", sl: "" }),
});
export type AppScope = z.infer<typeof appScopeSchema>;

export const variableSchema = z.strictObject({
  name: typedText(100).min(1),
  description: typedText(1000).default(""),
});

/** What an admin edits; the server fills in IDs and checks the rules of reference §9.1. */
export const templateFieldsSchema = z.strictObject({
  name: typedText(200).min(1),
  description: typedText(4000).default(""),
  homepageTemplate: typedText(2000).default(""),
  idScopes: z.array(scopeToken).max(50).default(["openid"]),
  /** Scopes besides the OpenID ones that the template's clients may be granted. */
  appScopes: z.array(appScopeSchema).max(50).default([]),
  variables: z.array(variableSchema).max(50).default([]),
  clientsPublic: z.array(publicClientSchema).max(20).default([]),
  clientsBackend: z.array(backendClientSchema).max(20).default([]),
  clientsService: z.array(serviceClientSchema).max(20).default([]),
  /** Identity IDs; the editing identity is always kept. */
  admins: z.array(idText()).max(100).default([]),
});
export type TemplateFields = z.infer<typeof templateFieldsSchema>;
export type PublicClient = z.infer<typeof publicClientSchema>;
export type BackendClient = z.infer<typeof backendClientSchema>;
export type ServiceClient = z.infer<typeof serviceClientSchema>;

export const templateUpdateSchema = templateFieldsSchema.extend({ version: z.number().int().positive() });

export const templateSchema = templateFieldsSchema.extend({
  id: z.string(),
  version: z.number().int(),
  canUpdate: z.boolean(),
  ownAdminIdentities: ownAdminIdentitiesSchema,
});
export type Template = z.infer<typeof templateSchema>;
