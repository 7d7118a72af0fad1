import type { Generated } from "kysely";

// The tables as Kysely sees them. Times are milliseconds since the epoch; JSON is stored as text so
// both engines hold the same bytes.

export interface InstanceSettingTable {
  key: string;
  value: string;
}

export interface SigningKeyTable {
  kid: string;
  alg: string;
  private_jwk: string;
  created_at: number;
  retired_at: number | null;
}

/** Every artifact oidc-provider keeps: sessions, grants, codes, tokens, interactions, ... */
export interface OidcModelTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

export interface OrganizationTable {
  id: string;
  version: Generated<number>;
  document: string;
  created_at: number;
  updated_at: number;
}

export interface OauthClientTable {
  id: string;
  organization_id: string;
  application_id: string;
  /** public, backend or service */
  kind: string;
  /** oidc-provider client metadata without the secret */
  metadata: string;
  /** SHA-256 of the client secret; null for public clients */
  secret_hash: string | null;
  active: number;
}

export interface Schema {
  instance_settings: InstanceSettingTable;
  signing_keys: SigningKeyTable;
  oidc_models: OidcModelTable;
  organizations: OrganizationTable;
  oauth_clients: OauthClientTable;
}
