import type { BackendClient, PublicClient, ServiceClient, Template } from "../../../common/api/template.ts";

// Clients as their form edits them: texts, turned back into the contract's values when saved.

export type ClientKind = "public" | "backend" | "service";

export interface ClientDraft {
  /** Key of the draft in its list; the server's ID when it has one. */
  readonly key: string;
  readonly id: string | undefined;
  readonly description: string;
  /** One per line. */
  readonly redirectUriTemplates: string;
  /** Space-separated. */
  readonly additionalScopes: string;
  readonly accessTokenType: "hmac" | "jwt";
  /** Seconds, as typed. */
  readonly accessTokenLifespan: string;
  readonly idTokenLifespan: string;
  readonly refreshTokenLifespan: string;
  readonly tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
}

type AnyClient = PublicClient | BackendClient | ServiceClient;

let nextKey = 0;
const newKey = () => `new-${++nextKey}`;

export function draftOf(client: AnyClient): ClientDraft {
  return {
    key: client.id ?? newKey(),
    id: client.id,
    description: client.description,
    redirectUriTemplates: "redirectUriTemplates" in client ? client.redirectUriTemplates.join("\n") : "",
    additionalScopes: client.additionalScopes.join(" "),
    accessTokenType: client.accessTokenType,
    accessTokenLifespan: String(client.accessTokenLifespan),
    idTokenLifespan: String(client.idTokenLifespan),
    refreshTokenLifespan:
      client.refreshTokenLifespan === undefined ? "" : String(client.refreshTokenLifespan),
    tokenEndpointAuthMethod:
      "tokenEndpointAuthMethod" in client ? client.tokenEndpointAuthMethod : "client_secret_post",
  };
}

const hour = 3600;

/** A new client's defaults (reference §9.2). */
export function newDraft(template: Pick<Template, "variables">): ClientDraft {
  const hasUriBase = template.variables.some((variable) => variable.name === "uriBase");
  return {
    key: newKey(),
    id: undefined,
    description: "",
    redirectUriTemplates: hasUriBase ? "{uriBase}/oidc/redirect" : "",
    additionalScopes: "",
    accessTokenType: "hmac",
    accessTokenLifespan: String(hour),
    idTokenLifespan: String(hour),
    refreshTokenLifespan: String(720 * hour),
    tokenEndpointAuthMethod: "client_secret_post",
  };
}

export const splitWords = (text: string) => text.split(/\s+/).filter(Boolean);
const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
/** Seconds; an empty or unreadable input is left out (the server then uses its default or rejects it). */
const seconds = (text: string) => {
  const value = Number(text.trim());
  return text.trim() === "" || !Number.isFinite(value) ? undefined : value;
};

function common(draft: ClientDraft) {
  const refresh = seconds(draft.refreshTokenLifespan);
  return {
    ...(draft.id === undefined ? {} : { id: draft.id }),
    description: draft.description,
    additionalScopes: splitWords(draft.additionalScopes),
    accessTokenType: draft.accessTokenType,
    accessTokenLifespan: seconds(draft.accessTokenLifespan),
    idTokenLifespan: seconds(draft.idTokenLifespan),
    ...(refresh === undefined ? {} : { refreshTokenLifespan: refresh }),
  };
}

export function publicClientOf(draft: ClientDraft) {
  return { ...common(draft), redirectUriTemplates: lines(draft.redirectUriTemplates) };
}

export function backendClientOf(draft: ClientDraft) {
  return { ...publicClientOf(draft), tokenEndpointAuthMethod: draft.tokenEndpointAuthMethod };
}

export function serviceClientOf(draft: ClientDraft) {
  return { ...common(draft), tokenEndpointAuthMethod: draft.tokenEndpointAuthMethod };
}
