import type { z } from "zod/mini";
import type {
  AccessTokenType,
  BackendClient,
  PublicClient,
  publicClientSchema,
  ServiceClient,
  Template,
  templateFieldsSchema,
} from "../../../common/api/template.ts";
import { templateScopeProblems, type ScopeProblemCode } from "../../../common/scopes.ts";
import { lifespanInput, lifespanSeconds, type LifespanInput } from "./lifespan.ts";

// A template as its page edits it: texts and lifespans as typed, turned back into the contract's
// values in one go when the page saves.

export const clientKinds = ["public", "backend", "service"] as const;
export type ClientKind = (typeof clientKinds)[number];
export type TokenEndpointAuthMethod = BackendClient["tokenEndpointAuthMethod"];

/** The template field that holds the clients of a kind, also the start of their fields' paths. */
export const clientListOf = {
  public: "clientsPublic",
  backend: "clientsBackend",
  service: "clientsService",
} as const satisfies Record<ClientKind, string>;

/** Lifespans only a client that signs people in uses: service clients get neither ID nor refresh tokens. */
export const usesPersonTokens = (kind: ClientKind) => kind !== "service";
/** Redirect URIs belong to the clients that sign people in. */
export const usesRedirects = usesPersonTokens;
/** Public clients have no secret, so they do not authenticate at the token endpoint. */
export const usesClientSecret = (kind: ClientKind) => kind !== "public";
/** Only an app with a server can be told by a call from Vrata that a person signed out. */
export const usesBackchannelLogout = (kind: ClientKind) => kind === "backend";

export interface VariableDraft {
  /** Key of the row in its list. */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** What organizations' apps that already use the template get; empty for none. */
  readonly default: string;
}

/** A scope of the app's own API, with its description in each language. */
export interface AppScopeDraft {
  /** Key of the row in its list. */
  readonly key: string;
  readonly name: string;
  readonly en: string;
  readonly sl: string;
}

export interface ClientDraft {
  /** Key of the card in its list; the server's ID once it has one. */
  readonly key: string;
  readonly kind: ClientKind;
  /** The client template ID, for a saved client. */
  readonly id: string | undefined;
  readonly description: string;
  /** One per line. */
  readonly redirectUriTemplates: string;
  /** One per line. */
  readonly postLogoutRedirectUriTemplates: string;
  /** Empty: the app is not told of logouts by the back channel. */
  readonly backchannelLogoutUriTemplate: string;
  readonly requirePushedAuthorizationRequests: boolean;
  /** Space-separated. */
  readonly additionalScopes: string;
  readonly accessTokenType: AccessTokenType;
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  readonly accessTokenLifespan: LifespanInput;
  readonly idTokenLifespan: LifespanInput;
  /** Empty: refresh tokens do not expire. */
  readonly refreshTokenLifespan: LifespanInput;
}

export type LifespanField = "accessTokenLifespan" | "idTokenLifespan" | "refreshTokenLifespan";

export interface TemplateDraft {
  readonly name: string;
  readonly description: string;
  readonly homepageTemplate: string;
  /** Space-separated. */
  readonly idScopes: string;
  readonly appScopes: readonly AppScopeDraft[];
  readonly variables: readonly VariableDraft[];
  readonly clients: Readonly<Record<ClientKind, readonly ClientDraft[]>>;
}

let lastKey = 0;
const newKey = () => `new-${++lastKey}`;

export function newVariable(): VariableDraft {
  return { key: newKey(), name: "", description: "", default: "" };
}

export function newAppScope(): AppScopeDraft {
  return { key: newKey(), name: "", en: "", sl: "" };
}

type AnyClient = PublicClient | BackendClient | ServiceClient;

function clientDraftOf(kind: ClientKind, client: AnyClient): ClientDraft {
  return {
    key: client.id ?? newKey(),
    kind,
    id: client.id,
    description: client.description,
    redirectUriTemplates: "redirectUriTemplates" in client ? client.redirectUriTemplates.join("\n") : "",
    postLogoutRedirectUriTemplates:
      "postLogoutRedirectUriTemplates" in client ? client.postLogoutRedirectUriTemplates.join("\n") : "",
    backchannelLogoutUriTemplate:
      "backchannelLogoutUriTemplate" in client ? client.backchannelLogoutUriTemplate : "",
    requirePushedAuthorizationRequests:
      "requirePushedAuthorizationRequests" in client && client.requirePushedAuthorizationRequests,
    additionalScopes: client.additionalScopes.join(" "),
    accessTokenType: client.accessTokenType,
    tokenEndpointAuthMethod:
      "tokenEndpointAuthMethod" in client ? client.tokenEndpointAuthMethod : "client_secret_post",
    accessTokenLifespan: lifespanInput(client.accessTokenLifespan),
    idTokenLifespan: lifespanInput(client.idTokenLifespan),
    refreshTokenLifespan: lifespanInput(client.refreshTokenLifespan),
  };
}

export function templateDraftOf(template: Template): TemplateDraft {
  return {
    name: template.name,
    description: template.description,
    homepageTemplate: template.homepageTemplate,
    idScopes: template.idScopes.join(" "),
    appScopes: template.appScopes.map(({ name, description }) => ({ key: newKey(), name, ...description })),
    variables: template.variables.map((variable) => ({
      key: newKey(),
      ...variable,
      default: variable.default ?? "",
    })),
    clients: {
      public: template.clientsPublic.map((client) => clientDraftOf("public", client)),
      backend: template.clientsBackend.map((client) => clientDraftOf("backend", client)),
      service: template.clientsService.map((client) => clientDraftOf("service", client)),
    },
  };
}

const hour = 3600;

/** A new client's defaults (reference §9.2): redirects to `{uriBase}/oidc/redirect` when the template has that variable. */
export function newClient(kind: ClientKind, variables: readonly VariableDraft[]): ClientDraft {
  const hasUriBase = variables.some((variable) => variable.name.trim() === "uriBase");
  return {
    key: newKey(),
    kind,
    id: undefined,
    description: "",
    redirectUriTemplates: usesRedirects(kind) && hasUriBase ? "{uriBase}/oidc/redirect" : "",
    postLogoutRedirectUriTemplates: "",
    backchannelLogoutUriTemplate: "",
    requirePushedAuthorizationRequests: false,
    additionalScopes: "",
    accessTokenType: "hmac",
    tokenEndpointAuthMethod: "client_secret_post",
    accessTokenLifespan: lifespanInput(hour),
    idTokenLifespan: lifespanInput(hour),
    refreshTokenLifespan: lifespanInput(usesPersonTokens(kind) ? 720 * hour : undefined),
  };
}

export const splitWords = (text: string) => text.split(/\s+/).filter(Boolean);
const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The fields of a template that its page saves; admins are saved on their own. */
export type TemplateEdit = Omit<z.input<typeof templateFieldsSchema>, "admins">;
type PublicClientInput = z.input<typeof publicClientSchema>;

/**
 * Something the page can tell before saving, at the field of that dotted path: a problem of the
 * page's own, or a scope the server would refuse with that error code (and the scope as its value).
 */
export type DraftProblem =
  | { readonly field: string; readonly problem: "name" | "variableName" | "redirectUris" | "lifespan" }
  | { readonly field: string; readonly error: ScopeProblemCode; readonly values: readonly string[] };

/**
 * The draft as the update request's fields, and what in it the server would refuse anyway (so it
 * is shown without a round trip). An unreadable lifespan is left out of the fields.
 */
export function templateEditOf(draft: TemplateDraft): {
  readonly edit: TemplateEdit;
  readonly problems: readonly DraftProblem[];
} {
  const problems: DraftProblem[] = [];
  if (draft.name.trim() === "") problems.push({ field: "name", problem: "name" });
  const variables = draft.variables.map(({ name, description, default: fallback }, index) => {
    if (name.trim() === "") problems.push({ field: `variables.${index}.name`, problem: "variableName" });
    return { name, description, ...(fallback ? { default: fallback } : {}) };
  });

  const seconds = (client: ClientDraft, path: string, field: LifespanField, required: boolean) => {
    const value = lifespanSeconds(client[field]);
    if (value === null || (value === undefined && required)) {
      problems.push({ field: `${path}.${field}`, problem: "lifespan" });
    }
    return value ?? undefined;
  };
  // What every kind has; a path is where the client's fields are in the request.
  const common = (client: ClientDraft, path: string) => ({
    ...(client.id === undefined ? {} : { id: client.id }),
    description: client.description,
    additionalScopes: splitWords(client.additionalScopes),
    accessTokenType: client.accessTokenType,
    accessTokenLifespan: seconds(client, path, "accessTokenLifespan", true),
  });
  const publicClient = (client: ClientDraft, path: string): PublicClientInput => {
    const redirectUriTemplates = lines(client.redirectUriTemplates);
    if (redirectUriTemplates.length === 0) {
      problems.push({ field: `${path}.redirectUriTemplates`, problem: "redirectUris" });
    }
    return {
      ...common(client, path),
      idTokenLifespan: seconds(client, path, "idTokenLifespan", true),
      refreshTokenLifespan: seconds(client, path, "refreshTokenLifespan", false),
      redirectUriTemplates,
      postLogoutRedirectUriTemplates: lines(client.postLogoutRedirectUriTemplates),
      requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    };
  };
  const withPaths = <C>(kind: ClientKind, clientOf: (client: ClientDraft, path: string) => C) =>
    draft.clients[kind].map((client, index) => clientOf(client, `${clientListOf[kind]}.${index}`));

  const edit: TemplateEdit = {
    name: draft.name,
    description: draft.description,
    homepageTemplate: draft.homepageTemplate,
    idScopes: splitWords(draft.idScopes),
    appScopes: draft.appScopes.map(({ name, en, sl }) => ({ name: name.trim(), description: { en, sl } })),
    variables,
    clientsPublic: withPaths("public", publicClient),
    clientsBackend: withPaths("backend", (client, path) => ({
      ...publicClient(client, path),
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      backchannelLogoutUriTemplate: client.backchannelLogoutUriTemplate.trim(),
    })),
    clientsService: withPaths("service", (client, path) => ({
      ...common(client, path),
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    })),
  };
  const scopesOf = (kind: ClientKind) =>
    draft.clients[kind].map((client) => ({ additionalScopes: splitWords(client.additionalScopes) }));
  const scopes = {
    idScopes: edit.idScopes ?? [],
    appScopes: edit.appScopes,
    clientsPublic: scopesOf("public"),
    clientsBackend: scopesOf("backend"),
    clientsService: scopesOf("service"),
  };
  for (const { field, code, scope } of templateScopeProblems(scopes)) {
    problems.push({ field, error: code, values: [scope] });
  }
  return { edit, problems };
}

/** Whether the draft would save something other than `template` holds. */
export function changedFrom(template: Template, draft: TemplateDraft): boolean {
  const saved = templateEditOf(templateDraftOf(template)).edit;
  return JSON.stringify(saved) !== JSON.stringify(templateEditOf(draft).edit);
}

/** The saved template's clients that the draft no longer has: saving removes them from every app. */
export function removedClients(
  template: Template,
  draft: TemplateDraft,
): { kind: ClientKind; description: string }[] {
  const kept = new Set(clientKinds.flatMap((kind) => draft.clients[kind].map((client) => client.id)));
  return clientKinds.flatMap((kind) =>
    template[clientListOf[kind]]
      .filter((client) => !kept.has(client.id))
      .map((client) => ({ kind, description: client.description })),
  );
}
