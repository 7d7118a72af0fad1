// @peculiar/x509 resolves its services through decorators that need the Reflect metadata API.
import "reflect-metadata";
import { isIP } from "node:net";
import * as x509 from "@peculiar/x509";
import { dayMs } from "./tls.ts";

// Making the local CA and localhost certificates. Loaded only when one has to be made: the library
// is large, and a start with certificates in place does not need it.

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };

x509.cryptoProvider.set(crypto);

export interface PemPair {
  certPem: string;
  keyPem: string;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", key)).toString("base64");
  return `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{64}/g, "$&\n").trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ""), "base64");
  return crypto.subtle.importKey("pkcs8", der, algorithm, true, ["sign"]);
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
}

/** A new local certificate authority, valid for ten years. */
export async function createCa(): Promise<PemPair> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: "CN=Vrata local development CA",
    notBefore: new Date(now - dayMs),
    notAfter: new Date(now + 10 * 365 * dayMs),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem") + "\n", keyPem: await privateKeyPem(keys.privateKey) };
}

/** A server certificate for `hosts`, valid for a year, signed by the CA; its PEM holds the chain. */
export async function createServerCertificate(ca: PemPair, hosts: Iterable<string>): Promise<PemPair> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    subject: "CN=localhost",
    issuer: caCert.subject,
    notBefore: new Date(now - dayMs),
    notAfter: new Date(now + 365 * dayMs),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: await importPrivateKey(ca.keyPem),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        [...hosts].map((host) => ({
          type: isIP(host) !== 0 ? ("ip" as const) : ("dns" as const),
          value: host,
        })),
      ),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  // The chain lets clients that trust the CA verify the certificate without extra configuration.
  return {
    certPem: `${cert.toString("pem")}\n${caCert.toString("pem")}\n`,
    keyPem: await privateKeyPem(keys.privateKey),
  };
}
