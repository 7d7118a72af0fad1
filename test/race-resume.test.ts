import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { attempts, sentTogether } from "./support/together.ts";

// The engine's interaction is answered once: its result, sent back to the engine's resume address
// several times at the same moment, gives the app one authorization code.

describe.each(storeEngines)("resuming a finished sign-in at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
    app = await registerTestApp(server.db);
  });
  afterAll(() => server.dispose());

  it("gives the app one code; the other resumes find the interaction gone", async () => {
    const driver = await FlowDriver.start(server.issuer, app);
    expect((await driver.step("passwordStart", { emailOrUsername: "resumed" })).status).toBe(200);
    expect((await driver.step("passwordComplete", { password: "correct horse battery" })).status).toBe(200);
    const id = (await driver.identities())[0]?.id ?? "";
    expect((await driver.step("chooseIdentity", { identity: { id } })).status).toBe(200);
    expect((await driver.step("redirect")).flow.completed.at(-1)).toBe("finishReady");
    const finished = await driver.fetch(`${server.issuer}/auth/${driver.flowId}`);
    expect(finished.status).toBe(303);
    const resume = new URL(finished.headers.get("location") ?? "", server.issuer).href;

    const answers = await sentTogether(server.issuer, () => driver.fetch(resume));
    const codes = answers.filter(
      ({ location }) => location && new URL(location, server.issuer).searchParams.has("code"),
    );
    expect(codes).toHaveLength(1);
    const refused = answers.filter(({ status }) => status !== 303).map(({ status }) => status);
    expect(refused).toEqual(Array.from({ length: attempts - 1 }, () => 400));
  });
});
