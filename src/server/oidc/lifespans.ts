import type { Client } from "oidc-provider";

// Each client carries its template's token lifespans as extra metadata, so the engine's (synchronous)
// lifespan functions can read them from the client itself.

export const lifespanProperties = [
  "vrata_access_token_lifespan",
  "vrata_id_token_lifespan",
  "vrata_refresh_token_lifespan",
] as const;

type Kind = "access" | "id" | "refresh";

/** The client metadata that sets its lifespans, in seconds; absent ones fall back to the defaults. */
export function lifespanMetadata(lifespans: { access: number; id: number; refresh?: number | undefined }) {
  return {
    vrata_access_token_lifespan: lifespans.access,
    vrata_id_token_lifespan: lifespans.id,
    ...(lifespans.refresh === undefined ? {} : { vrata_refresh_token_lifespan: lifespans.refresh }),
  };
}

/** The client's lifespan of a token kind in seconds (extra metadata keeps its snake_case name). */
export function lifespan(client: Client | undefined, kind: Kind, fallback: number): number {
  const key = `vrata_${kind}_token_lifespan` as const;
  const value = (client as Record<string, unknown> | undefined)?.[key];
  return typeof value === "number" && value > 0 ? value : fallback;
}
