import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { codeFlow } from "../bench/code-flow.ts";
import { measureFlowCost } from "../bench/flow-cost.ts";
import { passwordSignIn } from "../bench/vrata-sign-in.ts";
import { registerTestApp, type TestApp } from "./support/apps.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// What one password sign-in costs the store, counted as the bench counts it (`npm run bench`, "sign-in
// flow"): the store queries off /metrics, over an app's whole authorization code flow (authorize, the
// password, the identity, back to the app, the code exchange). Pinned, so that it cannot creep back.

/** Store queries of one password sign-in of an account with one identity, as the bench reports it. */
const queriesPerSignIn = 41;

const token = "a metrics token for counting a sign-in's queries";

describe.each(storeEngines)("one password sign-in on $name", ({ url }) => {
  let server: TestServer;
  let app: TestApp;
  let folder: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-sign-in-queries-"));
    fs.writeFileSync(path.join(folder, "token"), token, { mode: 0o600 });
    server = await startTestServer({
      postgresUrl: url,
      args: ["--metrics-token-file", path.join(folder, "token")],
    });
    app = await registerTestApp(server.db, "Notes");
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await server.dispose();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it(`asks the store ${queriesPerSignIn} queries`, async () => {
    // The clock stands still, so that what the server keeps for a moment (clients, an app's
    // organization and sign-in policy) is kept all through, as on a quick machine: a slow one counts
    // the same.
    vi.useFakeTimers({ toFake: ["Date"] });
    const person = { username: "dana", password: "dana's long passphrase" };
    const flow = (outcome: "signup" | "signin") => () =>
      codeFlow(
        server.issuer,
        app,
        "openid profile email",
        passwordSignIn(person.username, person.password, outcome),
      );
    await flow("signup")();
    await flow("signin")();
    const cost = await measureFlowCost({ url: server.issuer }, token, flow("signin"), 3);
    expect(cost).toEqual({ flows: 3, storeQueriesPerFlow: queriesPerSignIn, httpRequestsPerFlow: 9 });
  });
});
