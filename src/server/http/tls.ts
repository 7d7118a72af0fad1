// @peculiar/x509 resolves its services through decorators that need the Reflect metadata API.
import "reflect-metadata";
import fs from "node:fs/promises";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import type { Config } from "../config.ts";

export interface TlsMaterial {
  key: string;
  cert: string;
  /** The generated local CA's certificate file, for browsers and NODE_EXTRA_CA_CERTS to trust. */
  caFile?: string;
}

const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
const dayMs = 24 * 60 * 60 * 1000;
/** A certificate this close to its end is replaced at start. */
const renewBeforeMs = 30 * dayMs;

x509.cryptoProvider.set(crypto);

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
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

async function writePrivate(file: string, content: string): Promise<void> {
  await fs.writeFile(file, content, { mode: 0o600 });
}

async function loadOrCreateCa(dir: string): Promise<{ cert: x509.X509Certificate; key: CryptoKey }> {
  const certFile = path.join(dir, "ca.pem");
  const keyFile = path.join(dir, "ca-key.pem");
  const [certPem, keyPem] = await Promise.all([readIfExists(certFile), readIfExists(keyFile)]);
  if (certPem && keyPem) {
    const cert = new x509.X509Certificate(certPem);
    if (cert.notAfter.getTime() - Date.now() > renewBeforeMs)
      return { cert, key: await importPrivateKey(keyPem) };
  }
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
  await writePrivate(keyFile, await privateKeyPem(keys.privateKey));
  await fs.writeFile(certFile, cert.toString("pem") + "\n");
  return { cert, key: keys.privateKey };
}

function coversHost(cert: x509.X509Certificate, host: string): boolean {
  const names = cert.getExtension(x509.SubjectAlternativeNameExtension)?.names.items ?? [];
  return names.some((name) => name.value === host);
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(":");
}

/**
 * A local CA and a certificate for localhost (and the issuer's host), kept in the data folder and
 * renewed when they come close to expiry or the issuer's host changes.
 */
async function generatedTls(dataDir: string, issuer: string): Promise<TlsMaterial> {
  const dir = path.join(dataDir, "tls");
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const issuerHost = new URL(issuer).hostname.replace(/^\[|\]$/g, "");
  const certFile = path.join(dir, "localhost.pem");
  const keyFile = path.join(dir, "localhost-key.pem");
  const caFile = path.join(dir, "ca.pem");

  const ca = await loadOrCreateCa(dir);
  const [certPem, keyPem] = await Promise.all([readIfExists(certFile), readIfExists(keyFile)]);
  if (certPem && keyPem) {
    const cert = new x509.X509Certificate(certPem);
    const fresh = cert.notAfter.getTime() - Date.now() > renewBeforeMs;
    const signedByCa =
      cert.issuer === ca.cert.subject && (await cert.verify({ publicKey: ca.cert.publicKey }));
    if (fresh && signedByCa && coversHost(cert, issuerHost)) return { key: keyPem, cert: certPem, caFile };
  }

  const hosts = new Set(["localhost", "127.0.0.1", "::1", issuerHost]);
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    subject: "CN=localhost",
    issuer: ca.cert.subject,
    notBefore: new Date(now - dayMs),
    notAfter: new Date(now + 365 * dayMs),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: ca.key,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        [...hosts].map((host) => ({
          type: isIpAddress(host) ? ("ip" as const) : ("dns" as const),
          value: host,
        })),
      ),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  const key = await privateKeyPem(keys.privateKey);
  // The chain lets clients that trust the CA verify the certificate without extra configuration.
  const chain = `${cert.toString("pem")}\n${ca.cert.toString("pem")}\n`;
  await writePrivate(keyFile, key);
  await fs.writeFile(certFile, chain);
  return { key, cert: chain, caFile };
}

/** The certificate and key to serve, or undefined when a proxy in front terminates TLS. */
export async function loadTls(config: Config): Promise<TlsMaterial | undefined> {
  switch (config.tls.kind) {
    case "proxy":
      return undefined;
    case "files":
      return {
        cert: await fs.readFile(config.tls.certFile, "utf8"),
        key: await fs.readFile(config.tls.keyFile, "utf8"),
      };
    case "generated":
      return generatedTls(config.dataDir, config.issuer);
  }
}
