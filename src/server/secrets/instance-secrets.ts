import { hkdfSync } from "node:crypto";
import { keyedHash, type KeyedHash } from "./keyed-hash.ts";
import { sealer, type Sealer } from "./sealing.ts";

/** What the instance key is used for; each purpose has a key of its own, derived from it. */
export interface InstanceSecrets {
  /** Seals signing keys and instance secrets in the store. */
  sealer: Sealer;
  /** Stands for the ID of every oidc-provider artifact (tokens, codes, sessions, ...). */
  tokenIds: KeyedHash;
  /** Stands for e-mail codes. */
  emailCodes: KeyedHash;
  /** Stands for the secrets of flow session cookies. */
  flowSessions: KeyedHash;
  /** Tags a browser as known to an account (flow/known-device.ts). */
  knownDevices: KeyedHash;
  /** Names the counters of limits in the store (flow/throttle.ts). */
  limitKeys: KeyedHash;
  /** Stands for the states sent to third-party providers and the cookies that tie them to a browser. */
  upstreamStates: KeyedHash;
  /** Stands for the SAML assertions already accepted (their IdP and ID). */
  samlAssertions: KeyedHash;
  /** Stands for the tokens of invitation links sent by e-mail. */
  invitationTokens: KeyedHash;
  /** Stands for recovery codes (second factors). */
  recoveryCodes: KeyedHash;
  /** Makes the `sub` the account page's client knows an account by, which no organization sees. */
  accountSubjects: KeyedHash;
}

const subkey = (instanceKey: Buffer, purpose: string) =>
  Buffer.from(hkdfSync("sha256", instanceKey, "vrata instance key", purpose, 32));

export function deriveInstanceSecrets(instanceKey: Buffer): InstanceSecrets {
  return {
    sealer: sealer(subkey(instanceKey, "sealing v1")),
    tokenIds: keyedHash(subkey(instanceKey, "oidc artifact ids v1")),
    emailCodes: keyedHash(subkey(instanceKey, "e-mail codes v1")),
    flowSessions: keyedHash(subkey(instanceKey, "flow sessions v1")),
    knownDevices: keyedHash(subkey(instanceKey, "known devices v1")),
    limitKeys: keyedHash(subkey(instanceKey, "limit counters v1")),
    upstreamStates: keyedHash(subkey(instanceKey, "upstream states v1")),
    samlAssertions: keyedHash(subkey(instanceKey, "saml assertions v1")),
    invitationTokens: keyedHash(subkey(instanceKey, "invitation tokens v1")),
    recoveryCodes: keyedHash(subkey(instanceKey, "recovery codes v1")),
    accountSubjects: keyedHash(subkey(instanceKey, "account subjects v1")),
  };
}
