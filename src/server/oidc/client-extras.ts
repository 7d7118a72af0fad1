import type { Client, ClientMetadata } from "oidc-provider";
import type { AccessTokenType } from "../../common/api/template.ts";

// Vrata's own client metadata, carried on each client so the engine's synchronous hooks (lifespans)
// and Vrata's token handling can read it from the client itself. Extra metadata keeps snake_case names.

export const extraClientProperties = [
  "vrata_access_token_lifespan",
  "vrata_id_token_lifespan",
  "vrata_refresh_token_lifespan",
  "vrata_access_token_type",
  "vrata_organization_id",
  "vrata_application_id",
  // The scopes of the app's own API granted to the client, space-separated: the engine's `scope`
  // takes only the scopes it supports for every client (oidc/client-scopes.ts).
  "vrata_app_scopes",
] as const;

type Kind = "access" | "id" | "refresh";
/** An engine client, or the stored metadata it is made from. */
type ClientOrMetadata = Client | ClientMetadata | undefined;

const extra = (client: ClientOrMetadata, key: (typeof extraClientProperties)[number]): unknown =>
  (client as Record<string, unknown> | undefined)?.[key];

/**
 * The stored metadata that sets a client's lifespans in seconds, its access token type and the app's
 * own scopes it is granted.
 */
export function extraMetadata(settings: {
  access: number;
  id: number;
  refresh?: number | undefined;
  accessTokenType: AccessTokenType;
  appScopes: readonly string[];
}) {
  return {
    ...(settings.appScopes.length > 0 ? { vrata_app_scopes: settings.appScopes.join(" ") } : {}),
    vrata_access_token_lifespan: settings.access,
    vrata_id_token_lifespan: settings.id,
    ...(settings.refresh === undefined ? {} : { vrata_refresh_token_lifespan: settings.refresh }),
    vrata_access_token_type: settings.accessTokenType,
  };
}

/** The client's lifespan of a token kind in seconds; absent ones fall back to the defaults. */
export function lifespan(client: ClientOrMetadata, kind: Kind, fallback: number): number {
  const value = extra(client, `vrata_${kind}_token_lifespan`);
  return typeof value === "number" && value > 0 ? value : fallback;
}

export function accessTokenType(client: ClientOrMetadata): AccessTokenType {
  return extra(client, "vrata_access_token_type") === "jwt" ? "jwt" : "hmac";
}

/** The app's own scopes the client is granted. */
export function appScopesOf(client: ClientOrMetadata): Set<string> {
  const value = extra(client, "vrata_app_scopes");
  return new Set(typeof value === "string" ? value.split(" ").filter(Boolean) : []);
}

/** Where the client belongs: its organization and the organization's application. */
export function ownerOf(client: Client): { organizationId: string; applicationId: string } {
  return {
    organizationId: String(extra(client, "vrata_organization_id")),
    applicationId: String(extra(client, "vrata_application_id")),
  };
}
