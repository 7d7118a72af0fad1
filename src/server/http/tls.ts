import { X509Certificate } from "node:crypto";
import fs from "node:fs/promises";
import { isIP } from "node:net";
import path from "node:path";
import type { Config } from "../config.ts";
import type { PemPair } from "./tls-generate.ts";
import { makeFolder } from "../folders.ts";

export interface TlsMaterial {
  key: string;
  cert: string;
  /** The generated local CA's certificate file, for browsers and NODE_EXTRA_CA_CERTS to trust. */
  caFile?: string;
}

export const dayMs = 24 * 60 * 60 * 1000;
/** A certificate this close to its end is replaced at start. */
const renewBeforeMs = 30 * dayMs;

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function readPair(certFile: string, keyFile: string): Promise<PemPair | undefined> {
  const [certPem, keyPem] = await Promise.all([readIfExists(certFile), readIfExists(keyFile)]);
  return certPem && keyPem ? { certPem, keyPem } : undefined;
}

async function writePair(certFile: string, keyFile: string, pair: PemPair): Promise<void> {
  await fs.writeFile(keyFile, pair.keyPem, { mode: 0o600 });
  await fs.writeFile(certFile, pair.certPem);
}

const fresh = (cert: X509Certificate) => new Date(cert.validTo).getTime() - Date.now() > renewBeforeMs;

function coversHost(cert: X509Certificate, host: string): boolean {
  return isIP(host) !== 0
    ? cert.checkIP(host) !== undefined
    : cert.checkHost(host, { subject: "never" }) !== undefined;
}

async function loadOrCreateCa(dir: string): Promise<PemPair & { cert: X509Certificate }> {
  const certFile = path.join(dir, "ca.pem");
  const keyFile = path.join(dir, "ca-key.pem");
  const stored = await readPair(certFile, keyFile);
  if (stored) {
    const cert = new X509Certificate(stored.certPem);
    if (fresh(cert)) return { ...stored, cert };
  }
  const { createCa } = await import("./tls-generate.ts");
  const created = await createCa();
  await writePair(certFile, keyFile, created);
  return { ...created, cert: new X509Certificate(created.certPem) };
}

/**
 * A local CA and a certificate for localhost (and the issuer's host), kept in the data folder and
 * renewed when they come close to expiry or the issuer's host changes.
 */
async function generatedTls(dataDir: string, issuer: string): Promise<TlsMaterial> {
  const dir = path.join(dataDir, "tls");
  makeFolder(dir);
  const issuerHost = new URL(issuer).hostname.replace(/^\[|\]$/g, "");
  const certFile = path.join(dir, "localhost.pem");
  const keyFile = path.join(dir, "localhost-key.pem");
  const caFile = path.join(dir, "ca.pem");

  const ca = await loadOrCreateCa(dir);
  const stored = await readPair(certFile, keyFile);
  if (stored) {
    const cert = new X509Certificate(stored.certPem);
    const signedByCa = cert.checkIssued(ca.cert) && cert.verify(ca.cert.publicKey);
    if (fresh(cert) && signedByCa && coversHost(cert, issuerHost))
      return { key: stored.keyPem, cert: stored.certPem, caFile };
  }

  const { createServerCertificate } = await import("./tls-generate.ts");
  const created = await createServerCertificate(ca, new Set(["localhost", "127.0.0.1", "::1", issuerHost]));
  await writePair(certFile, keyFile, created);
  return { key: created.keyPem, cert: created.certPem, caFile };
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
