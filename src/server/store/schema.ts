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
  /** Counts the keys of its algorithm from 1; unique with `alg`, so one rotation makes one generation. */
  generation: number;
  /** When it starts signing (until then it is published to verify only). */
  activates_at: number;
  /** When the next generation took over its signing; null while it signs or waits to. */
  retired_at: number | null;
  /** When it leaves the published keys, every token it signed having expired by then. */
  removes_at: number | null;
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

export interface AccountTable {
  id: string;
  created_at: number;
  /** When the cleanup deletes the account its person asked to delete; null while none is pending (0022). */
  deletion_due_at: number | null;
}

export interface CredentialTable {
  id: string;
  account_id: string;
  /** password, email, username, ... */
  provider: string;
  /** The normalized lookup key (case-mapped e-mail or username); null for passwords. */
  provider_id: string | null;
  display_name: string;
  /** JSON: the argon2id PHC string for a password, nothing for e-mail and username. */
  data: string;
  created_at: number;
  updated_at: number;
}

export interface IdentityTable {
  id: string;
  version: number;
  document: string;
  creator_account_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface IdentityMemberTable {
  identity_id: string;
  member_identity_id: string;
  role: "admin" | "user";
}

/**
 * A word an identity is found by (see search-text.ts), one row each: no longer searched (migration
 * 0023 says why), only kept in step for the previous release; a later version drops it.
 */
export interface IdentitySearchWordTable {
  word: string;
  identity_id: string;
}

/** A word a membership is found by in its organization, in the order its members are listed. */
export interface MemberSearchWordTable {
  organization_id: string;
  word: string;
  /** The membership's `created_at`: members are listed newest first. */
  joined_at: number;
  membership_id: string;
}

export interface IdentityShareTable {
  identity_id: string;
  account_id: string;
  role: "admin" | "user";
}

/** An identity shared with an e-mail address: it is the share of the account that owns the address. */
export interface IdentityAddressShareTable {
  identity_id: string;
  address_key: string;
  id: string;
  person: string;
  role: "admin" | "user";
  position: number;
}

export interface IdentityOrganizationTable {
  id: string;
  identity_id: string;
  organization_id: string;
  active: number;
  created_at: number;
  last_signed_in_at: number | null;
}

export interface IdentityApplicationTable {
  membership_id: string;
  application_id: string;
  created_at: number;
}

export interface FlowTable {
  id: string;
  client_id: string;
  organization_id: string;
  application_id: string;
  state: string;
  version: number;
  created_at: number;
  expires_at: number;
}

export interface SessionTable {
  id: string;
  secret_hash: string;
  account_id: string;
  flow_id: string;
  active: number;
  created_at: number;
  expires_at: number;
}

export interface GrantAccountTable {
  grant_id: string;
  account_id: string;
  identity_id: string;
  session_id: string | null;
  created_at: number;
}

export interface ActivityTable {
  id: string;
  account_id: string | null;
  type: string;
  /** The category of `type` its lists can be narrowed to (activityCategories). */
  category: string | null;
  document: string;
  created_at: number;
}

/** An activity about an organization, and the member of it (organization-scoped ID) it concerns. */
export interface ActivityOrganizationTable {
  activity_id: string;
  organization_id: string;
  membership_id: string | null;
  /** The activity's category, so the organization's list of one category is one index range. */
  category: string | null;
  created_at: number;
}

export interface AttemptCounterTable {
  key: string;
  /** How full the bucket was at `updated_at`; it drains at the key's rate. */
  level: number;
  updated_at: number;
}

export interface OrganizationInvitationTable {
  id: string;
  organization_id: string;
  identity_id: string;
  /** admin or member */
  role: string;
  invited_by_identity_id: string;
  /** Whose activity shows the acceptance; never shown to anybody. */
  invited_by_account_id: string;
  created_at: number;
  expires_at: number;
}

/** An invitation to an organization sent to an e-mail address (migration 0018). */
export interface AddressInvitationTable {
  id: string;
  organization_id: string;
  /** The keyed hash of the e-mailed link's token. */
  token_hash: string;
  address_key: string;
  address: string;
  /** admin or member */
  role: string;
  /** pending, accepted, declined or withdrawn */
  status: string;
  invited_by_identity_id: string;
  invited_by_account_id: string;
  created_at: number;
  expires_at: number;
}

/** A challenge of a passkey an account is adding, until it is answered or expires. */
export interface PasskeyChallengeTable {
  challenge: string;
  account_id: string;
  /** The user handle the new passkey is made for, base64url. */
  user_handle: string;
  created_at: number;
  expires_at: number;
}

/** An e-mail address being added to an account, until the code sent to it is typed. */
export interface EmailVerificationTable {
  id: string;
  account_id: string;
  /** The address's lookup key (case-mapped), and the address as typed. */
  address_key: string;
  address: string;
  /** Keyed hash of the code with the row's ID. */
  code_hash: string;
  created_at: number;
  expires_at: number;
}

/** A block of an identity by an organization; lifted ones stay as a record. */
export interface BlockTable {
  id: string;
  organization_id: string;
  /** The organization-scoped identity ID. */
  membership_id: string;
  identity_id: string;
  /** identity or identityAndAccounts */
  scope: string;
  /** For the organization's admins only. */
  admin_note: string;
  /** Shown to the blocked person. */
  user_note: string;
  blocked_by_identity_id: string;
  created_at: number;
  lifted_at: number | null;
  lifted_by_identity_id: string | null;
}

/** The accounts a block of an identity and its accounts covers; never shown to anybody. */
export interface BlockAccountTable {
  block_id: string;
  account_id: string;
}

/**
 * A sign-in at a third-party provider under way: the browser was sent there with a state whose keyed
 * hash names this row, and comes back with it once. It belongs to a flow (signing in or up) or to an
 * account (linking the provider).
 */
export interface UpstreamRequestTable {
  /** Keyed hash of the state sent to the provider. */
  id: string;
  provider: string;
  flow_id: string | null;
  account_id: string | null;
  /** Keyed hash of the value of the cookie that ties the request to the browser that started it. */
  browser_hash: string;
  /** JSON: what the provider's type needs to check the answer (nonce, PKCE verifier, request ID). */
  data: string;
  created_at: number;
  expires_at: number;
}

/** A SAML assertion accepted once, kept until it expires so that it is not accepted again. */
export interface SamlAssertionTable {
  /** Keyed hash of the IdP's entity ID and the assertion's ID. */
  id: string;
  expires_at: number;
}

/** The identity a person chose for an application, and the scopes they agreed to give it. */
/** A browser where an account is signed in: its single sign-on session's user agent and times. */
export interface SessionDeviceTable {
  /** The ID the session's artifact is stored under (a keyed hash of its cookie's value). */
  session_key: string;
  /** The opaque ID the account page names it by. */
  id: string;
  account_id: string;
  user_agent: string;
  signed_in_at: number;
  last_active_at: number;
}

export interface ApplicationChoiceTable {
  account_id: string;
  application_id: string;
  organization_id: string;
  /** The chosen identity's membership of the application's organization: the app's `sub`. */
  membership_id: string;
  /** Space-separated. */
  scopes: string;
  chosen_at: number;
}

/** A versioned JSON document: application templates and organizations. */
export interface DocumentTable {
  id: string;
  version: number;
  document: string;
  created_at: number;
  updated_at: number;
}

export interface Schema {
  instance_settings: InstanceSettingTable;
  signing_keys: SigningKeyTable;
  oidc_models: OidcModelTable;
  organizations: DocumentTable;
  oauth_clients: OauthClientTable;
  accounts: AccountTable;
  credentials: CredentialTable;
  identities: IdentityTable;
  identity_members: IdentityMemberTable;
  identity_shares: IdentityShareTable;
  identity_address_shares: IdentityAddressShareTable;
  identity_search_words: IdentitySearchWordTable;
  member_search_words: MemberSearchWordTable;
  identity_organizations: IdentityOrganizationTable;
  identity_applications: IdentityApplicationTable;
  flows: FlowTable;
  sessions: SessionTable;
  grant_accounts: GrantAccountTable;
  activities: ActivityTable;
  activity_organizations: ActivityOrganizationTable;
  attempt_counters: AttemptCounterTable;
  application_templates: DocumentTable;
  organization_invitations: OrganizationInvitationTable;
  address_invitations: AddressInvitationTable;
  passkey_challenges: PasskeyChallengeTable;
  email_verifications: EmailVerificationTable;
  blocks: BlockTable;
  block_accounts: BlockAccountTable;
  upstream_requests: UpstreamRequestTable;
  saml_assertions: SamlAssertionTable;
  application_choices: ApplicationChoiceTable;
  session_devices: SessionDeviceTable;
}
