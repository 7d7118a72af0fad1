import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../../test/support/stores.ts";
import { insertAccount } from "../accounts.ts";
import { insertFlow, insertSession } from "../flows.ts";
import { upsertOidcModel } from "../oidc-models.ts";
import { up } from "./0005-keyed-artifact-ids.ts";

describe.each(storeEngines)("migration 0005 on $name", ({ open }) => {
  let store: TestStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  const count = async (table: "oidc_models" | "sessions" | "flows" | "accounts") =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("removes what earlier versions stored under plain values, and nothing else", async () => {
    const now = Date.now();
    await insertAccount(store.db, "account1", now);
    await upsertOidcModel(store.db, {
      model: "RefreshToken",
      id: "a-plain-refresh-token",
      payload: JSON.stringify({ jti: "a-plain-refresh-token" }),
      grantId: "grant1",
      uid: null,
      userCode: null,
      expiresAt: now + 60_000,
    });
    const flow = {
      id: "flow1",
      clientId: "c",
      organizationId: "o",
      applicationId: "a",
      state: "{}",
      version: 1,
    };
    await insertFlow(store.db, { ...flow, expiresAt: now + 60_000 }, now);
    await insertSession(
      store.db,
      {
        id: "session1",
        accountId: "account1",
        flowId: "flow1",
        secretHash: "plain-sha256",
        expiresAt: now + 60_000,
      },
      now,
    );

    await up(store.db as unknown as Kysely<unknown>);
    expect([await count("oidc_models"), await count("sessions"), await count("flows")]).toEqual([0, 0, 0]);
    expect(await count("accounts")).toBe(1);
  });
});
