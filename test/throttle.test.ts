import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { postgresUrl } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

describe.each([
  { name: "SQLite", url: undefined },
  ...(postgresUrl ? [{ name: "PostgreSQL", url: postgresUrl }] : []),
])("on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    app = await registerTestApp(server.db);
  });
  afterAll(() => server.dispose());

  it("throttles an account across flows, so new flows do not reset an attacker", async () => {
    const victim = await FlowDriver.start(server.issuer, app);
    await victim.step("passwordStart", { emailOrUsername: "victim" });
    expect(
      (await victim.step("passwordComplete", { password: "the real passphrase" })).flow.completed,
    ).toEqual(["signup"]);

    // Five flows of ten wrong guesses each: every flow fails, and the account is then throttled.
    for (let flow = 0; flow < 5; flow++) {
      const attacker = await FlowDriver.start(server.issuer, app);
      await attacker.step("passwordStart", { emailOrUsername: "victim" });
      for (let guess = 0; guess < 10; guess++)
        await attacker.step("passwordComplete", { password: `guess ${guess}!!` });
      expect((await attacker.get()).completed).toEqual(["failed"]);
    }
    const next = await FlowDriver.start(server.issuer, app);
    await next.step("passwordStart", { emailOrUsername: "victim" });
    const throttled = await next.step("passwordComplete", { password: "the real passphrase" });
    expect(throttled).toMatchObject({ status: 400, flow: { error: "tooManyAttempts", completed: [] } });
  });
});
