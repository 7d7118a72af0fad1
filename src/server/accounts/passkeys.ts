import type { RegistrationResponseJSON } from "@simplewebauthn/browser";
import { passkeyTimeoutMs } from "../../common/limits.ts";
import type { Database } from "../store/database.ts";
import { findCredential, updateCredentialData, type CredentialRow } from "../store/accounts.ts";
import { webauthn } from "./webauthn.ts";

// A passkey is a credential with provider `passkey`, found by its WebAuthn credential ID (base64url)
// and holding in `data` what verifying its signatures needs and what the person sees of it.

export const passkeyProvider = "passkey";

/** Algorithms a new passkey may use, in order of preference: EdDSA, ES256 and RS256 (COSE's numbers). */
export const passkeyAlgorithms = [-8, -7, -257];

/**
 * The relying party is the issuer: its origin is the only one a passkey's answer may come from, its
 * host the RP ID.
 */
export function passkeyRelyingParty(issuer: string): { origin: string; id: string } {
  const url = new URL(issuer);
  return { origin: url.origin, id: url.hostname };
}

/** Where the options of a new passkey differ between a sign-up and an account adding one. */
export interface PasskeyRegistration {
  issuer: string;
  /** The instance's title, which authenticators show as the site's name. */
  title: string;
  userHandle: Uint8Array;
  /** What the authenticator lists the passkey under (a username or an e-mail address). */
  userName: string;
  /** The person's name, when they gave one; else the user name stands for it. */
  userDisplayName?: string;
  /** Passkeys the account has already: an authenticator holding one of them makes no second one. */
  exclude?: readonly Passkey[];
}

/** The options of a discoverable passkey that verifies its user, without attestation. */
export async function passkeyRegistrationOptions(registration: PasskeyRegistration) {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: registration.title,
    rpID: passkeyRelyingParty(registration.issuer).id,
    userID: new Uint8Array(registration.userHandle),
    userName: registration.userName,
    userDisplayName: registration.userDisplayName ?? registration.userName,
    timeout: passkeyTimeoutMs,
    attestationType: "none",
    excludeCredentials: (registration.exclude ?? []).map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.data.transports,
    })),
    authenticatorSelection: {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    },
    supportedAlgorithmIDs: passkeyAlgorithms,
  });
}

/**
 * The passkey a registration answer makes, verified against the challenge it must sign; undefined
 * when anything about the answer is wrong (origin, RP ID, challenge, user verification, format).
 */
export async function verifiedNewPasskey(
  issuer: string,
  response: RegistrationResponseJSON,
  expected: { challenge: string; userHandle: string; name: string },
  log: { info: (details: object, message: string) => void },
): Promise<NewPasskey | undefined> {
  const { origin, id } = passkeyRelyingParty(issuer);
  const { verifyRegistrationResponse } = await webauthn();
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: expected.challenge,
      expectedOrigin: origin,
      expectedRPID: id,
      requireUserVerification: true,
      supportedAlgorithmIDs: passkeyAlgorithms,
    });
    if (!verified) return undefined;
    const { credential } = registrationInfo;
    return {
      credentialId: credential.id,
      name: expected.name,
      data: {
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? [],
        aaguid: registrationInfo.aaguid,
        multiDevice: registrationInfo.credentialDeviceType === "multiDevice",
        backedUp: registrationInfo.credentialBackedUp,
        userHandle: expected.userHandle,
      },
    };
  } catch (error) {
    log.info({ err: error }, "passkey registration refused");
    return undefined;
  }
}

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
