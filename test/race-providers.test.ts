import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FlowResponse } from "../src/common/api/flow.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { browserFetch, CookieJar } from "./support/browser.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { freePort } from "./support/ports.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { attempts, sentTogether, statusCounts } from "./support/together.ts";
import { registerUpstreamClient } from "./support/upstream.ts";

// An upstream OpenID Connect provider's answer, brought back several times at the same moment by the
// browser that started the sign-in: its request is taken once, and the flow signs up once. (SAML
// assertions are recorded once by one statement: src/server/store/saml-assertions.test.ts sends 20 at
// once.)

const key = "upstream";

describe.each(storeEngines)("an upstream answer brought back at the same moment, on $name", ({ url }) => {
  let upstream: TestServer;
  let server: TestServer;
  let app: TestApp;
  let configDir: string;
  let callbackPrefix: string;
  beforeAll(async () => {
    upstream = await startTestServer();
    const port = await freePort();
    callbackPrefix = `https://localhost:${port}/auth/provider/${key}`;
    const { clientId, clientSecret } = await registerUpstreamClient(upstream.url, callbackPrefix);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-race-upstream-"));
    fs.writeFileSync(path.join(configDir, "upstream.secret"), clientSecret);
    fs.writeFileSync(
      path.join(configDir, "vrata.json"),
      JSON.stringify({
        providers: [
          {
            key,
            type: "oidc",
            name: { en: "Upstream", sl: "Zgornji" },
            issuer: upstream.issuer,
            clientId,
            clientSecretFile: "upstream.secret",
          },
        ],
      }),
    );
    server = await startTestServer({
      postgresUrl: url,
      args: ["--port", String(port), "--config", path.join(configDir, "vrata.json")],
    });
    app = await registerTestApp(server.db);
  });
  afterAll(async () => {
    await server.dispose();
    await upstream.dispose();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  /** Signs up at the upstream from its authorization URL and returns where it sends the browser back. */
  async function answerAtUpstream(location: string, username: string): Promise<URL> {
    const send = browserFetch(new CookieJar());
    const step = async (flowId: string, name: string, body: unknown = {}) =>
      (await (
        await send(`${upstream.url}/api/auth/${name}/${flowId}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as FlowResponse;
    let next = location;
    for (let hop = 0; hop < 10; hop++) {
      const response = await send(next);
      const target = new URL(response.headers.get("location") ?? "", next);
      if (target.href.startsWith(callbackPrefix)) return target;
      const flowId = /^\/auth\/([\w-]{43})$/.exec(target.pathname)?.[1];
      if (target.origin === new URL(upstream.url).origin && flowId) {
        await step(flowId, "passwordStart", { emailOrUsername: username });
        await step(flowId, "passwordComplete", { password: `${username} passphrase` });
        const [identity] = (await (await send(`${upstream.url}/api/i?flow=${flowId}`)).json()) as {
          id: string;
        }[];
        await step(flowId, "chooseIdentity", { identity: { id: identity?.id } });
        await step(flowId, "redirect");
      }
      next = target.href;
    }
    throw new Error("too many redirects");
  }

  it("takes the answer once and signs up one account", async () => {
    const driver = await FlowDriver.start(server.url, app);
    const { flow } = await driver.step("providerStart", { provider: key });
    const callback = await answerAtUpstream(flow.thirdPartyProvider?.location ?? "", "uma");
    const answers = await sentTogether(server.url, () =>
      driver.fetch(callback.href, { headers: { accept: "text/html" } }),
    );
    expect(statusCounts(answers)).toEqual({ 303: 1, 400: attempts - 1 });
    expect((await driver.get()).completed).toEqual(["signup"]);
    const accounts = await server.db
      .selectFrom("credentials")
      .select("account_id")
      .where("provider", "=", key)
      .execute();
    expect(accounts).toHaveLength(1);
  });
});
