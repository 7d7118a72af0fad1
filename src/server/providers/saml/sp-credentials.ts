// @peculiar/x509 resolves its services through decorators that need the Reflect metadata API.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import type { Sealer } from "../../secrets/sealing.ts";
import { sealedSettingOrCreate } from "../../secrets/sealed-settings.ts";
import { toPem } from "./pem.ts";
import type { Database } from "../../store/database.ts";

/** The key Vrata signs its AuthnRequests with, and the certificate its SP metadata publishes. */
export interface SamlSpCredentials {
  /** PKCS #8 PEM. */
  privateKeyPem: string;
  certificatePem: string;
}

// RSA with SHA-256: the one signature algorithm every SAML IdP verifies.
const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]) };

x509.cryptoProvider.set(crypto);

const settingKey = "samlServiceProviderKey";

/**
 * A new key pair and self-signed certificate. In SAML metadata a certificate only carries the key (no
 * CA vouches for it, IdPs pin it), so it is valid until the end of time (RFC 5280's 9999-12-31) and
 * never has to be renewed and given to every IdP again.
 */
export async function createSpCredentials(commonName: string): Promise<SamlSpCredentials> {
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
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  return {
    privateKeyPem: toPem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey)),
    certificatePem: cert.toString("pem") + "\n",
  };
}

/**
 * The instance's SAML service-provider key and certificate, made on first start and kept sealed in
 * the store with the other instance secrets: every instance on the store and every SAML IdP share
 * them, and a copy of the database alone does not reveal the key. `commonName` names the
 * certificate when it is made (the instance's title).
 */
export async function loadSamlSpCredentials(
  db: Database,
  sealer: Sealer,
  commonName: string,
): Promise<SamlSpCredentials> {
  const stored = await sealedSettingOrCreate(db, sealer, settingKey, async () =>
    JSON.stringify(await createSpCredentials(commonName)),
  );
  return JSON.parse(stored) as SamlSpCredentials;
}
