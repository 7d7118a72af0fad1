import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../../test/support/stores.ts";
import { generateSigningKey, keyRoles } from "../../oidc/keys.ts";
import { deriveInstanceSecrets } from "../../secrets/instance-secrets.ts";
import { signingKeyRows } from "../signing-keys.ts";

describe.each(storeEngines)("migration 0012 on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open("0011-upstream-requests");
  });
  afterAll(() => store.dispose());

  it("makes the keys of earlier versions generations, the newest of each algorithm signing", async () => {
    const { sealer } = deriveInstanceSecrets(randomBytes(32));
    // Instances that started together could each add an RS256 key.
    const stored = [
      { ...(await generateSigningKey("RS256", sealer, 0, 0)), createdAt: 1000 },
      { ...(await generateSigningKey("RS256", sealer, 0, 0)), createdAt: 1001 },
      { ...(await generateSigningKey("ES256", sealer, 0, 0)), createdAt: 1000 },
    ];
    for (const key of stored) {
      await sql`insert into signing_keys (kid, alg, private_jwk, created_at)
        values (${key.kid}, ${key.alg}, ${key.privateJwk}, ${key.createdAt})`.execute(store.db);
    }
    await store.migrate();

    const rows = await signingKeyRows(store.db);
    const roles = keyRoles(rows, Date.now());
    expect(rows.map((row) => [row.kid, row.generation, row.activatesAt, roles.get(row.kid)])).toEqual([
      [stored[2]?.kid, 1, 1000, "signing"],
      [stored[1]?.kid, 2, 1001, "signing"],
      [stored[0]?.kid, 1, 1000, "retired"],
    ]);
  });
});
