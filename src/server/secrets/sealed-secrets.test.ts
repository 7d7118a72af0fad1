import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { loadSigningKeys } from "../oidc/keys.ts";
import { insertSigningKeys } from "../store/signing-keys.ts";
import { deriveInstanceSecrets } from "./instance-secrets.ts";
import { sealedSettingOrCreate } from "./sealed-settings.ts";
import { WrongSecretKey } from "./sealing.ts";

// The signing keys and instance secrets as a start finds them: made sealed, or left in plain text by
// an earlier version and sealed then.

describe.each(storeEngines)("sealed keys and secrets on $name", ({ open }) => {
  let store: TestStore;
  const { sealer } = deriveInstanceSecrets(randomBytes(32));
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  const storedSettings = async () =>
    JSON.stringify(await store.db.selectFrom("instance_settings").selectAll().execute());
  const storedKeys = async () =>
    JSON.stringify(await store.db.selectFrom("signing_keys").selectAll().execute());

  it("seals a secret made on first start, and one an earlier version stored in plain text", async () => {
    const made = await sealedSettingOrCreate(store.db, sealer, "madeSecret", () => "fresh-secret-value");
    expect(made).toBe("fresh-secret-value");
    await store.db
      .insertInto("instance_settings")
      .values({ key: "oldSecret", value: "plain-old-value" })
      .execute();
    expect(await sealedSettingOrCreate(store.db, sealer, "oldSecret", () => "unused")).toBe(
      "plain-old-value",
    );

    expect(await storedSettings()).not.toMatch(/fresh-secret-value|plain-old-value/);
    expect(await sealedSettingOrCreate(store.db, sealer, "oldSecret", () => "unused")).toBe(
      "plain-old-value",
    );
    expect(await sealedSettingOrCreate(store.db, sealer, "madeSecret", () => "unused")).toBe(
      "fresh-secret-value",
    );
  });

  it("seals an earlier version's plain signing key and keeps using it", async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: "old-rsa", alg: "RS256", use: "sig" };
    const old = {
      kid: "old-rsa",
      alg: "RS256",
      privateJwk: JSON.stringify(jwk),
      generation: 1,
      activatesAt: 1,
    };
    await insertSigningKeys(store.db, [old], 1);

    const keys = (await loadSigningKeys(store.db, sealer)).signing;
    expect(keys.map((key) => key.alg)).toEqual(["RS256", "ES256"]);
    expect(keys[0]).toEqual(jwk);
    const stored = await storedKeys();
    for (const key of keys) expect(stored).not.toContain(key.d);
    expect((await loadSigningKeys(store.db, sealer)).signing.map((key) => key.kid)).toEqual(
      keys.map((key) => key.kid),
    );
  });

  it("refuses to open them with another key, and makes no new ones", async () => {
    const other = deriveInstanceSecrets(randomBytes(32)).sealer;
    const before = await storedKeys();
    await expect(sealedSettingOrCreate(store.db, other, "madeSecret", () => "new")).rejects.toThrow(
      WrongSecretKey,
    );
    await expect(loadSigningKeys(store.db, other)).rejects.toThrow(WrongSecretKey);
    expect(await storedKeys()).toBe(before);
  });
});
