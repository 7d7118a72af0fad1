import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { migrate } from "../store/migrate.ts";
import { deleteExpiredOidcModels } from "../store/oidc-models.ts";
import { insertDocument } from "../store/documents.ts";
import { syncOrganizationClients } from "../store/clients.ts";
import { clientCacheMs } from "../../common/limits.ts";
import { adapterFactory } from "./adapter.ts";
import { JwtAccessTokens } from "./jwt-access-tokens.ts";
import { loadSigningKeys } from "./keys.ts";
import { deriveInstanceSecrets } from "../secrets/instance-secrets.ts";

describe.each(storeEngines)("oidc-provider adapter on $name", ({ open }) => {
  let store: TestStore;
  let adapter: ReturnType<typeof adapterFactory>;
  beforeAll(async () => {
    store = await open();
    const secrets = deriveInstanceSecrets(randomBytes(32));
    const keys = await loadSigningKeys(store.db, secrets.sealer);
    adapter = adapterFactory(
      store.db,
      new JwtAccessTokens({
        db: store.db,
        issuer: "https://vrata.test",
        keys,
        sealer: secrets.sealer,
      }),
      secrets,
      "https://vrata.test",
    );
  });
  afterAll(() => store.dispose());

  it("stores, finds and replaces a payload", async () => {
    const sessions = adapter("Session");
    await sessions.upsert("s1", { jti: "s1", accountId: "a1", uid: "u1" }, 60);
    expect(await sessions.find("s1")).toEqual({ jti: "s1", accountId: "a1", uid: "u1" });
    expect(await sessions.findByUid("u1")).toEqual({ jti: "s1", accountId: "a1", uid: "u1" });
    await sessions.upsert("s1", { jti: "s1", accountId: "a2", uid: "u2" }, 60);
    expect(await sessions.find("s1")).toEqual({ jti: "s1", accountId: "a2", uid: "u2" });
    expect(await sessions.findByUid("u1")).toBeUndefined();
    expect(await adapter("AccessToken").find("s1")).toBeUndefined();
  });

  it("hides expired payloads and the cleanup removes them", async () => {
    const codes = adapter("AuthorizationCode");
    await codes.upsert("expired", { grantId: "g0" }, 0.001);
    await codes.upsert("fresh", { grantId: "g0" }, 60);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await codes.find("expired")).toBeUndefined();
    expect(await deleteExpiredOidcModels(store.db, Date.now())).toBeGreaterThanOrEqual(1);
    expect(await codes.find("fresh")).toEqual({ jti: "fresh", grantId: "g0" });
  });

  it("marks a consumed payload", async () => {
    const codes = adapter("AuthorizationCode");
    await codes.upsert("c1", { grantId: "g1" }, 60);
    const before = Math.floor(Date.now() / 1000);
    await codes.consume("c1");
    const consumed = await codes.find("c1");
    expect(consumed?.consumed).toBeGreaterThanOrEqual(before);
  });

  it("revokes every artifact of a grant and destroys single ones", async () => {
    await adapter("AccessToken").upsert("at", { grantId: "g2" }, 60);
    await adapter("RefreshToken").upsert("rt", { grantId: "g2" }, 60);
    await adapter("RefreshToken").upsert("other", { grantId: "g3" }, 60);
    await adapter("AccessToken").revokeByGrantId("g2");
    expect(await adapter("AccessToken").find("at")).toBeUndefined();
    expect(await adapter("RefreshToken").find("rt")).toBeUndefined();
    expect(await adapter("RefreshToken").find("other")).toBeDefined();
    await adapter("RefreshToken").destroy("other");
    expect(await adapter("RefreshToken").find("other")).toBeUndefined();
  });

  it("finds device-flow payloads by user code", async () => {
    await adapter("DeviceCode").upsert("d1", { jti: "d1", userCode: "ABCD-EFGH" }, 60);
    expect(await adapter("DeviceCode").findByUserCode("ABCD-EFGH")).toEqual({
      jti: "d1",
      userCode: "ABCD-EFGH",
    });
  });

  it("keeps no artifact ID, user code or session cookie readable in the store", async () => {
    const secretValues = {
      token: randomBytes(32).toString("base64url"),
      session: randomBytes(32).toString("base64url"),
      device: randomBytes(32).toString("base64url"),
      userCode: "WXYZ-QRST",
    };
    await adapter("RefreshToken").upsert(secretValues.token, { jti: secretValues.token, grantId: "g9" }, 60);
    await adapter("Session").upsert(secretValues.session, { jti: secretValues.session, uid: "u9" }, 60);
    await adapter("Interaction").upsert(
      "i9",
      { jti: "i9", session: { accountId: "a9", uid: "u9", cookie: secretValues.session } },
      60,
    );
    await adapter("DeviceCode").upsert(
      secretValues.device,
      { jti: secretValues.device, userCode: secretValues.userCode },
      60,
    );

    const rows = JSON.stringify(await store.db.selectFrom("oidc_models").selectAll().execute());
    for (const value of Object.values(secretValues)) expect(rows).not.toContain(value);
    expect(await adapter("RefreshToken").find(secretValues.token)).toMatchObject({ jti: secretValues.token });
    expect(await adapter("Session").findByUid("u9")).toMatchObject({ jti: secretValues.session });
    expect(await adapter("Interaction").find("i9")).toMatchObject({
      session: { cookie: secretValues.session },
    });
    expect(await adapter("DeviceCode").findByUserCode(secretValues.userCode)).toMatchObject({
      jti: secretValues.device,
      userCode: secretValues.userCode,
    });
  });

  it("reads clients from active organization applications only", async () => {
    const clientId = "Xy7Q2mZ8abcdefghijk123";
    await insertDocument(store.db, "organizations", "org1", { name: "Org" }, Date.now());
    await syncOrganizationClients(store.db, "org1", [
      {
        id: clientId,
        applicationId: "app1",
        kind: "public",
        active: true,
        metadata: { redirect_uris: ["https://app.example/cb"] },
      },
    ]);
    expect(await adapter("Client").find(clientId)).toEqual({
      client_id: clientId,
      redirect_uris: ["https://app.example/cb"],
      vrata_organization_id: "org1",
      vrata_application_id: "app1",
      require_auth_time: true,
    });
    expect(await adapter("Client").find("missing")).toBeUndefined();
    const client = {
      id: clientId,
      applicationId: "app1",
      kind: "public",
      metadata: { redirect_uris: ["https://app.example/cb"] },
    };
    // Disabled through this server: gone at once.
    await syncOrganizationClients(store.db, "org1", [{ ...client, active: false }]);
    expect(await adapter("Client").find(clientId)).toBeUndefined();
    // Enabled again by another server sharing the store: seen here within clientCacheMs.
    await store.db.updateTable("oauth_clients").set({ active: 1 }).where("id", "=", clientId).execute();
    await new Promise((resolve) => setTimeout(resolve, clientCacheMs + 50));
    expect(await adapter("Client").find(clientId)).toBeDefined();
  });

  it("runs migrations again without change", async () => {
    await migrate(store.db);
    expect(await adapter("Session").find("s1")).toBeDefined();
  });
});
