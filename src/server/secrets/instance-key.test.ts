import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeInstanceKey, loadInstanceKey } from "./instance-key.ts";

describe("instance key", () => {
  const roots: string[] = [];
  const tempFolder = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-key-"));
    roots.push(root);
    return root;
  };
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  it("is made on first start in a new owner-only folder, readable by its owner only, and kept", async () => {
    const file = path.join(tempFolder(), "data", "secret.key");
    const key = await loadInstanceKey({ kind: "file", file, createIfMissing: true });
    expect(key).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(key.toString("base64"));
    expect(await loadInstanceKey({ kind: "file", file, createIfMissing: true })).toEqual(key);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["secret.key"]);
  });

  it("is the same for instances starting together on one data folder", async () => {
    const file = path.join(tempFolder(), "secret.key");
    const keys = await Promise.all(
      Array.from({ length: 8 }, () => loadInstanceKey({ kind: "file", file, createIfMissing: true })),
    );
    expect(new Set(keys.map((key) => key.toString("hex"))).size).toBe(1);
  });

  it("is read from a given file or value, and only a 32-byte key is taken", async () => {
    const key = randomBytes(32);
    const file = path.join(tempFolder(), "given.key");
    fs.writeFileSync(file, `${key.toString("base64url")}\n`);
    expect(await loadInstanceKey({ kind: "file", file, createIfMissing: false })).toEqual(key);
    expect(await loadInstanceKey({ kind: "value", value: key.toString("base64") })).toEqual(key);

    await expect(
      loadInstanceKey({ kind: "file", file: `${file}.missing`, createIfMissing: false }),
    ).rejects.toMatchObject({ code: "ENOENT" });
    fs.writeFileSync(file, randomBytes(16).toString("base64"));
    await expect(loadInstanceKey({ kind: "file", file, createIfMissing: false })).rejects.toThrow(
      `the secret key file ${file} must hold 32 random bytes in base64`,
    );
    expect(decodeInstanceKey("not a key at all")).toBeUndefined();
  });
});
