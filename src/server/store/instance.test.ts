import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { loadSigningKeys } from "../oidc/keys.ts";
import { ensureConsoleClient } from "../organizations/console.ts";
import { deriveInstanceSecrets } from "../secrets/instance-secrets.ts";
import { settingOrCreate } from "./instance.ts";

describe.each(storeEngines)("instance state on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  it("keeps the first value of a setting, even when created concurrently", async () => {
    let calls = 0;
    const values = await Promise.all(
      Array.from({ length: 5 }, () => settingOrCreate(store.db, "race", () => `value-${++calls}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(await settingOrCreate(store.db, "race", () => "later")).toBe(values[0]);
  });

  it("generates RS256 and ES256 signing keys once", async () => {
    const { sealer } = deriveInstanceSecrets(randomBytes(32));
    const first = await loadSigningKeys(store.db, sealer);
    expect(first.signing.map((key) => key.alg)).toEqual(["RS256", "ES256"]);
    expect(first.signing.every((key) => key.kid && key.d)).toBe(true);
    expect(first.verifyOnly).toEqual([]);
    const second = await loadSigningKeys(store.db, sealer);
    expect(second.signing.map((key) => key.kid)).toEqual(first.signing.map((key) => key.kid));
  });

  it("sets the console up once when several instances start together", async () => {
    const fresh = await open();
    try {
      const results = await Promise.all(
        [1, 2, 3].map(() => ensureConsoleClient(fresh.db, "https://localhost:8080")),
      );
      expect(new Set(results.map((result) => result.clientId)).size).toBe(1);
    } finally {
      await fresh.dispose();
    }
  });

  it("keeps the console's IDs and follows the issuer's redirect URI", async () => {
    const first = await ensureConsoleClient(store.db, "https://localhost:8080");
    const second = await ensureConsoleClient(store.db, "https://id.example.com");
    expect(second.clientId).toBe(first.clientId);
    expect(second.organizationId).toBe(first.organizationId);
    expect(second.redirectUri).toBe("https://id.example.com/");
  });
});
