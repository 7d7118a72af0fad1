import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { consoleSignUp } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { LogoutReceiver } from "./support/logout-receiver.ts";
import { organizationWithAppToldOfLogouts } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { sentTogether, statusCounts } from "./support/together.ts";

// Signing out of Vrata, sent several times at the same moment by the same browser: the browser is
// signed out once, its apps are told once, and the account's activity says so once.

describe.each(storeEngines)("signing out at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let receiver: LogoutReceiver;
  beforeAll(async () => {
    receiver = await LogoutReceiver.start();
    server = await startTestServer({ postgresUrl: url, args: ["--backchannel-logout-private"] });
  });
  afterAll(async () => {
    await server.dispose();
    await receiver.close();
  });

  it("records one sign-out and tells the apps once", async () => {
    const club = await organizationWithAppToldOfLogouts(
      await consoleSignUp(server.url, "club-owner"),
      "Club",
      receiver.url,
    );
    const leaving = await consoleSignUp(server.url, "leaving");
    // The same browser signs in to the club's app too: its single sign-on session is in both.
    const browser = await FlowDriver.start(
      server.url,
      club.app,
      { scope: "openid profile" },
      club.auth,
      leaving.driver.jar,
    );
    expect((await browser.get()).singleSignOn).toBe(true);
    await browser.step("chooseIdentity", { identity: { id: leaving.identityId } });
    await browser.step("redirect");
    await browser.exchange(await browser.returnToApp());
    const told = receiver.tokens.length;

    const answers = await sentTogether(server.url, () =>
      leaving.driver.fetch(`${server.url}/auth/signout`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${leaving.tokens.access_token}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ location: "/" }),
      }),
    );
    expect(statusCounts(answers)).toEqual({ 200: answers.length });
    // Each sign-out waits for the apps' first delivery before it answers.
    expect(receiver.tokens.length - told).toBe(1);
    // Signed in again, with the same identity, to read what was recorded.
    const back = await consoleSignUp(server.url, "leaving", leaving.identityId);
    const entries = activityPageSchema.parse(
      await (await back.api("/api/activity?category=signIns")).json(),
    ).items;
    expect(entries.filter((entry) => entry.type === "signOut")).toHaveLength(1);
  });
});
