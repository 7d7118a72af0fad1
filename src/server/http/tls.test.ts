import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { loadTls } from "./tls.ts";

describe("generated TLS material", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-tls-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const load = (issuer?: string) =>
    loadTls(loadConfig(["--data", dataDir, ...(issuer ? ["--issuer", issuer] : [])], {}));

  it("makes a CA and a localhost certificate it signed, then keeps using them", async () => {
    const first = await load();
    const [leafPem = ""] = first?.cert.split(/(?<=-----END CERTIFICATE-----\n)/) ?? [];
    const leaf = new X509Certificate(leafPem);
    const ca = new X509Certificate(fs.readFileSync(first?.caFile ?? ""));
    expect(leaf.checkIssued(ca) && leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkHost("localhost")).toBe("localhost");
    expect(leaf.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(fs.statSync(path.join(dataDir, "tls", "localhost-key.pem")).mode & 0o777).toBe(0o600);

    expect(await load()).toEqual(first);
  });

  it("makes a new certificate from the same CA when the issuer's host changes", async () => {
    const before = await load();
    const caBefore = fs.readFileSync(before?.caFile ?? "", "utf8");
    const after = await load("https://id.example.test");
    expect(after?.cert).not.toBe(before?.cert);
    expect(fs.readFileSync(after?.caFile ?? "", "utf8")).toBe(caBefore);
    const [leafPem = ""] = after?.cert.split(/(?<=-----END CERTIFICATE-----\n)/) ?? [];
    expect(new X509Certificate(leafPem).checkHost("id.example.test")).toBe("id.example.test");
  });
});
