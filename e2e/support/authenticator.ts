import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { CDPSession, Page } from "@playwright/test";

// A platform authenticator for a page, through the DevTools WebAuthn domain: CTAP2 over the internal
// transport, with resident keys and user verification, answering without a person touching it.

/** A passkey as the authenticator keeps it, private key included (base64, PKCS#8). */
export interface StoredPasskey {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  userHandle?: string;
  privateKey: string;
  signCount: number;
}

/** A passkey for the site that no server ever registered, as a device keeps one after a server forgot it. */
export function strayPasskey(rpId: string): StoredPasskey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    credentialId: randomBytes(32).toString("base64"),
    isResidentCredential: true,
    rpId,
    userHandle: randomBytes(16).toString("base64"),
    privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    signCount: 0,
  };
}

export interface VirtualAuthenticator {
  /** The passkeys it holds. */
  passkeys(): Promise<StoredPasskey[]>;
  /** Keeps a passkey, as one synced to this device from another. */
  add(passkey: StoredPasskey): Promise<void>;
  /** Forgets one of its passkeys, as a person deleting it from their device. */
  forget(credentialId: string): Promise<void>;
  /** Whether the person verifies (fingerprint, PIN); a failed verification cancels the ceremony. */
  verifies(verified: boolean): Promise<void>;
  /** Whether a ceremony completes at once; without presence it waits, as a person who does not touch it. */
  responds(present: boolean): Promise<void>;
  /** Takes it away from the page, as unplugging it. */
  remove(): Promise<void>;
}

export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const session: CDPSession = await page.context().newCDPSession(page);
  await session.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await session.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    async passkeys() {
      const { credentials } = await session.send("WebAuthn.getCredentials", { authenticatorId });
      return credentials.map(
        ({ credentialId, isResidentCredential, rpId, userHandle, privateKey, signCount }) => ({
          credentialId,
          isResidentCredential,
          privateKey,
          signCount,
          ...(rpId === undefined ? {} : { rpId }),
          ...(userHandle === undefined ? {} : { userHandle }),
        }),
      );
    },
    async add(passkey) {
      await session.send("WebAuthn.addCredential", { authenticatorId, credential: passkey });
    },
    async forget(credentialId) {
      await session.send("WebAuthn.removeCredential", { authenticatorId, credentialId });
    },
    async verifies(verified) {
      await session.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: verified });
    },
    async responds(present) {
      await session.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: present });
    },
    async remove() {
      await session.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
    },
  };
}
