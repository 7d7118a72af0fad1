import type { Database } from "../store/database.ts";
import { findCredential, updateCredentialData, type CredentialRow } from "../store/accounts.ts";

// A passkey is a credential with provider `passkey`, found by its WebAuthn credential ID (base64url)
// and holding in `data` what verifying its signatures needs and what the person sees of it.

export const passkeyProvider = "passkey";

/** What is stored of a passkey (the credential row's `data`). */
export interface PasskeyData {
  /** The credential's public key as the authenticator gave it (COSE), base64url. */
  publicKey: string;
  /** The signature counter the authenticator last reported; 0 when it keeps none. */
  counter: number;
  transports: string[];
  /** The authenticator model's AAGUID (all zeros when the authenticator does not tell). */
  aaguid: string;
  /** May be copied to other devices (synced passkey), and has been backed up. */
  multiDevice: boolean;
  backedUp: boolean;
  /** The WebAuthn user handle the passkey was made for, base64url. */
  userHandle: string;
  /** When it last signed in, in milliseconds; absent until it has. */
  lastUsedAt?: number;
}

export interface Passkey {
  /** The credential row's ID. */
  id: string;
  accountId: string;
  credentialId: string;
  name: string;
  data: PasskeyData;
}

/** A passkey to store for an account: its credential ID, a name to show, and its data. */
export interface NewPasskey {
  credentialId: string;
  name: string;
  data: PasskeyData;
}

export const passkeyRow = (id: string, accountId: string, passkey: NewPasskey): CredentialRow => ({
  id,
  accountId,
  provider: passkeyProvider,
  providerId: passkey.credentialId,
  displayName: passkey.name,
  data: JSON.stringify(passkey.data),
});

export async function findPasskey(db: Database, credentialId: string): Promise<Passkey | undefined> {
  const row = await findCredential(db, passkeyProvider, credentialId);
  if (!row) return undefined;
  return {
    id: row.id,
    accountId: row.accountId,
    credentialId,
    name: row.displayName,
    data: JSON.parse(row.data) as PasskeyData,
  };
}

/** The passkey signed in: its new counter and backup state, and when. */
export function recordPasskeyUse(
  db: Database,
  passkey: Passkey,
  use: { counter: number; backedUp: boolean; at: number },
): Promise<void> {
  const data: PasskeyData = {
    ...passkey.data,
    counter: use.counter,
    backedUp: use.backedUp,
    lastUsedAt: use.at,
  };
  return updateCredentialData(db, passkey.id, JSON.stringify(data), use.at);
}
