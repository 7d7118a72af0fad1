import { z } from "zod/mini";
import { secondFactorSetUpMethods, signInPolicies } from "./second-factor.ts";
import { ownAdminIdentitiesSchema } from "./summary.ts";
import { templateFieldsSchema, tokenEndpointAuthMethods } from "./template.ts";
import { idText, typedText } from "./text.ts";

// Organizations (spec §2-§3, reference §2.3, §7.4, §9.4): admins add application templates, which
// makes organization applications with real OAuth clients.

export const valueSchema = z.strictObject({
  name: typedText(100).check(z.minLength(1)),
  value: typedText(2000),
});

/**
 * A template as an organization's app follows it: a copy of its latest version, without the
 * template's admins.
 */
export const applicationTemplateCopySchema = z.omit(templateFieldsSchema, { admins: true });

export const applicationClientSchema = z.object({
  /** The OAuth client_id apps use. */
  id: z.string(),
  /** The template's client it was made from. */
  templateClientId: z.string(),
  /**
   * A confidential client the template added after the app was: it has no secret until the
   * organization's admins ask for one, which they alone see.
   */
  needsSecret: z.optional(z.literal(true)),
});

export const organizationApplicationSchema = z.object({
  id: z.string(),
  active: z.boolean(),
  templateId: z.string(),
  applicationTemplate: applicationTemplateCopySchema,
  values: z.array(valueSchema),
  clientsPublic: z.array(applicationClientSchema),
  clientsBackend: z.array(applicationClientSchema),
  clientsService: z.array(applicationClientSchema),
});
export type OrganizationApplication = z.infer<typeof organizationApplicationSchema>;

/** An application in an update: an existing one by ID, or a template being added. */
export const applicationChangeSchema = z.union([
  z.strictObject({ id: idText(), active: z.boolean(), values: z.array(valueSchema).check(z.maxLength(50)) }),
  z.strictObject({
    templateId: idText(),
    active: z.boolean(),
    values: z.array(valueSchema).check(z.maxLength(50)),
  }),
]);

export const organizationFieldsSchema = z.strictObject({
  name: typedText(200).check(z.minLength(1)),
  description: z._default(typedText(4000), ""),
  /** What the organization's apps ask of people signing in (second-factor.ts); unchanged when absent. */
  signInPolicy: z.optional(z.enum(signInPolicies)),
});
export type OrganizationFields = z.infer<typeof organizationFieldsSchema>;

export const organizationUpdateSchema = z.extend(organizationFieldsSchema, {
  version: z.int().check(z.positive()),
  admins: z.array(idText()).check(z.maxLength(100)),
  applications: z.array(applicationChangeSchema).check(z.maxLength(100)),
  /** Client IDs whose secret is replaced; the new secrets are in the answer, once. */
  rotateSecrets: z._default(z.array(idText()).check(z.maxLength(100)), []),
  /** The organization's status; unchanged when absent. A disabled organization's apps refuse sign-in. */
  active: z.optional(z.boolean()),
});
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

export const organizationSchema = z.extend(organizationFieldsSchema, {
  id: z.string(),
  signInPolicy: z.enum(signInPolicies),
  version: z.int(),
  canUpdate: z.boolean(),
  /** Active, or disabled: its apps refuse sign-in and tokens. */
  active: z.boolean(),
  ownAdminIdentities: ownAdminIdentitiesSchema,
  /** Admins only. */
  admins: z.optional(z.array(z.string())),
  applications: z.optional(z.array(organizationApplicationSchema)),
  /** Client secrets made by this update (new backend and service clients, rotations), shown once. */
  secrets: z.optional(z.array(z.object({ clientId: z.string(), secret: z.string() }))),
});
export type Organization = z.infer<typeof organizationSchema>;

export const clientKinds = ["public", "backend", "service"] as const;

/** A client of an application with what its app is configured with: the template's URIs filled in. */
export const configuredClientSchema = z.object({
  kind: z.enum(clientKinds),
  /** The OAuth client_id. */
  id: z.string(),
  description: z.string(),
  /** The redirect URI templates with the organization's values; none for service clients. */
  redirectUris: z.array(z.string()),
  /** Where the app may send people after they sign out, filled in the same way. */
  postLogoutRedirectUris: z.array(z.string()),
  /** Whether the app must push its sign-in requests first (RFC 9126). */
  requirePushedAuthorizationRequests: z.boolean(),
  /** How a backend or service client authenticates at the token endpoint. */
  tokenEndpointAuthMethod: z.optional(z.enum(tokenEndpointAuthMethods)),
  /** Where a backend client's server hears that a person's session ended, if anywhere. */
  backchannelLogoutUri: z.optional(z.string()),
  /** The scopes the client may ask for: OpenID scopes (not for a service client) and the app's own. */
  scopes: z.array(z.string()),
});
export type ConfiguredClient = z.infer<typeof configuredClientSchema>;

/**
 * `GET /api/o/app/{id}/{appId}`: an active application as anybody may see it, with its homepage filled
 * in; for the organization's admins also a disabled one, and its clients as the app is configured.
 */
export const publicApplicationSchema = z.extend(
  z.pick(organizationApplicationSchema, { id: true, active: true, applicationTemplate: true, values: true }),
  {
    homepage: z.optional(z.string()),
    clients: z.optional(z.array(configuredClientSchema)),
    /** For its admins: what the app needs configured after its template changed (nothing, mostly). */
    needs: z.optional(z.object({ variables: z.array(z.string()), secrets: z.array(z.string()) })),
    /**
     * For its admins, while the app can sign people in: its test client, which the console's "Try
     * signing in" runs the app's sign-in with, and the scopes it asks for.
     */
    trySignIn: z.optional(z.object({ clientId: z.string(), scopes: z.array(z.string()) })),
    /**
     * For its admins, when Vrata serves a certificate of its own local CA: the CA's certificate file,
     * which the app has to trust.
     */
    localCaFile: z.optional(z.string()),
  },
);
export type PublicApplication = z.infer<typeof publicApplicationSchema>;

/** `GET /api/o/identity/{id}/{identityId}`: an identity as the organization sees it. */
export const organizationIdentitySchema = z.object({
  /** The organization-scoped ID. */
  id: z.string(),
  organizationId: z.string(),
  active: z.boolean(),
  /** A block of the identity is in force in the organization. */
  blocked: z.boolean(),
  /** Whether the identity is one of the organization's admins. */
  admin: z.boolean(),
  /** The organization's applications the identity has signed in to. */
  applications: z.array(z.string()),
  username: z.optional(z.string()),
  email: z.optional(z.string()),
  givenName: z.optional(z.string()),
  fullName: z.optional(z.string()),
  pictureUrl: z.optional(z.string()),
});

/**
 * A member's status in the organization. `blocked` is a member the organization's admins blocked;
 * it wins over the other two.
 */
export const memberStatuses = ["active", "disabled", "blocked"] as const;
export type MemberStatus = (typeof memberStatuses)[number];

/** A second factor a member may have, as the members list shows it. */
export const memberSecondFactorSchema = z.enum(secondFactorSetUpMethods);
export type MemberSecondFactor = z.infer<typeof memberSecondFactorSchema>;

/** `GET /api/o/users/{id}`: one member as the organization's admins list it. */
export const organizationUserSchema = z.object({
  /** The organization-scoped ID. */
  id: z.string(),
  username: z.optional(z.string()),
  email: z.optional(z.string()),
  givenName: z.optional(z.string()),
  fullName: z.optional(z.string()),
  pictureUrl: z.optional(z.string()),
  status: z.enum(memberStatuses),
  /** Whether the identity is one of the organization's admins. */
  admin: z.boolean(),
  /** The organization's applications the member has signed in to, by application ID. */
  applications: z.array(z.string()),
  joinedAt: z.string(),
  lastSignedInAt: z.optional(z.string()),
  /**
   * The second factors the member has: an authenticator app (`totp`), a passkey. Of an identity that
   * several accounts control, only those every one of them has.
   */
  secondFactors: z.array(memberSecondFactorSchema),
});
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

/** A page of members, newest first; `next` is the cursor of the following page. */
export const organizationUsersPageSchema = z.object({
  items: z.array(organizationUserSchema),
  next: z.optional(z.string()),
});

/** The members list's query: the page's cursor and words the names or e-mail must contain. */
export const organizationUsersQuerySchema = z.object({
  cursor: z.optional(z.string()),
  q: z.optional(typedText(200)),
});
