// @peculiar/x509 resolves its services through decorators that need the Reflect metadata API.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import type { Sealer } from "../../secrets/sealing.ts";
import { sealedSettingOrCreate } from "../../secrets/sealed-settings.ts";
import { toPem } from "./pem.ts";
import type { Database } from "../../store/database.ts";

/** A private key and the certificate that carries its public half. */
export interface SamlKeyPair {
  /** PKCS #8 PEM. */
  privateKeyPem: string;
  certificatePem: string;
}

/** What a key pair is for: each use has a key of its own, as the SP metadata says. */
export type SamlKeyUse = "signing" | "encryption";

/**
 * Vrata's keys as a SAML service provider, both published in its SP metadata: one signs the
 * AuthnRequests, the other is the key IdPs encrypt assertions to.
 */
export type SamlSpCredentials = Record<SamlKeyUse, SamlKeyPair>;

// RSA: the one key type every SAML IdP verifies signatures of (with SHA-256) and encrypts keys to
// (RSA-OAEP). The certificate of either is signed by its own key.
const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]) };

x509.cryptoProvider.set(crypto);

const keyUsages: Record<SamlKeyUse, x509.KeyUsageFlags> = {
  signing: x509.KeyUsageFlags.digitalSignature,
  encryption: x509.KeyUsageFlags.keyEncipherment,
};

/** Where each key is kept in the store; the signing key's name predates the encryption key. */
const settingKeys: Record<SamlKeyUse, string> = {
  signing: "samlServiceProviderKey",
  encryption: "samlServiceProviderEncryptionKey",
};

/**
 * A new key pair and self-signed certificate for `use`. In SAML metadata a certificate only carries
 * the key (no CA vouches for it, IdPs pin it), so it is valid until the end of time (RFC 5280's
 * 9999-12-31) and never has to be renewed and given to every IdP again.
 */
export async function createSamlKeyPair(commonName: string, use: SamlKeyUse): Promise<SamlKeyPair> {
  const keys = await crypto.subtle.generateKey({ ...algorithm, modulusLength: 3072 }, true, [
    "sign",
    "verify",
  ]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    // 127 random bits: a positive number that fits the 20 octets RFC 5280 allows.
    serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
      .toString("hex")
      .replace(/^[89a-f]/, "1"),
    name: [{ CN: [commonName] }],
    notBefore: new Date(Date.UTC(2000, 0, 1)),
    notAfter: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)),
    signingAlgorithm: algorithm,
    keys,
    extensions: [new x509.KeyUsagesExtension(keyUsages[use], true)],
  });
  return {
    privateKeyPem: toPem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey)),
    certificatePem: cert.toString("pem") + "\n",
  };
}

async function loadKeyPair(
  db: Database,
  sealer: Sealer,
  commonName: string,
  use: SamlKeyUse,
): Promise<SamlKeyPair> {
  const stored = await sealedSettingOrCreate(db, sealer, settingKeys[use], async () =>
    JSON.stringify(await createSamlKeyPair(commonName, use)),
  );
  return JSON.parse(stored) as SamlKeyPair;
}

/**
 * The instance's SAML service-provider keys and certificates, each made on first need and kept sealed
 * in the store with the other instance secrets: every instance on the store and every SAML IdP share
 * them, and a copy of the database alone does not reveal them. An instance that has only the
 * signing key gets the encryption key at its next start. `commonName` names a certificate when it is
 * made (the instance's title).
 */
export async function loadSamlSpCredentials(
  db: Database,
  sealer: Sealer,
  commonName: string,
): Promise<SamlSpCredentials> {
  const [signing, encryption] = await Promise.all([
    loadKeyPair(db, sealer, commonName, "signing"),
    loadKeyPair(db, sealer, commonName, "encryption"),
  ]);
  return { signing, encryption };
}
