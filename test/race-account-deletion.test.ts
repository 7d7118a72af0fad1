import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { consoleApp, consoleSignUp, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { attempts, sentTogether, statusCounts } from "./support/together.ts";

// Asking for an account's deletion, and keeping the account, sent several times at the same moment:
// each is done once, and the account's activity says so once.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("deleting and keeping an account at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ postgresUrl: url });
  });
  afterAll(() => server.dispose());

  let people = 0;
  const signUp = async () => {
    const name = `racing${++people}`;
    return { name, person: await consoleSignUp(server.url, name) };
  };

  /** A call of the person's browser: its console token and the single sign-on session's cookie (fresh). */
  const fromBrowser = (person: Person, route: string, body: unknown = {}) =>
    person.driver.fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${person.tokens.access_token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  const activityTypes = async (api: ConsoleApi) =>
    activityPageSchema.parse(await (await api("/api/activity")).json()).items.map((entry) => entry.type);
  const count = (types: string[], type: string) => types.filter((candidate) => candidate === type).length;

  it("records the request once", async () => {
    const { name, person } = await signUp();
    const answers = await sentTogether(server.url, () =>
      fromBrowser(person, "/api/account/delete", { confirmation: name }),
    );
    // Asking again while the deletion is pending changes nothing, and says when it is due.
    expect(statusCounts(answers)).toEqual({ 200: attempts });
    expect(new Set(answers.map(({ json }) => json?.dueAt)).size).toBe(1);
    expect(count(await activityTypes(person.api), "accountDeletionRequested")).toBe(1);
  });

  it("keeps the account once from the account page", async () => {
    const { name, person } = await signUp();
    expect((await fromBrowser(person, "/api/account/delete", { confirmation: name })).status).toBe(200);
    const answers = await sentTogether(server.url, () => fromBrowser(person, "/api/account/deleteCancel"));
    expect(statusCounts(answers)).toEqual({ 200: 1, 409: attempts - 1 });
    expect(count(await activityTypes(person.api), "accountDeletionCancelled")).toBe(1);
  });

  it("keeps the account once from a sign-in", async () => {
    const { name, person } = await signUp();
    expect((await fromBrowser(person, "/api/account/delete", { confirmation: name })).status).toBe(200);
    const driver = await FlowDriver.start(server.url, await consoleApp(server.url));
    await driver.step("passwordStart", { emailOrUsername: name });
    const { flow } = await driver.step("passwordComplete", { password: `${name}'s passphrase` });
    expect(flow.deletionDueAt).toBeDefined();
    const answers = await sentTogether(server.url, () => driver.raw("deletionCancel", {}));
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(count(await activityTypes(person.api), "accountDeletionCancelled")).toBe(1);
  });
});
