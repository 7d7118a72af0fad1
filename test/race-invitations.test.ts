import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleSignUp, postJson } from "./support/console.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { mailArgs, startSmtpReceiver } from "./support/smtp.ts";
import { attempts, sentTogether, statusCounts } from "./support/together.ts";

// Invitations answered several times at the same moment: one to an identity, accepted by it; and an
// e-mailed link, accepted with as many identities of the person who opened it. Each grants once.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe.each(storeEngines)("invitations accepted at the same moment, on $name", ({ url }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let owner: Person;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startTestServer({ postgresUrl: url, args: mailArgs(smtp.port) });
    owner = await consoleSignUp(server.url, "olga");
  });
  afterAll(async () => {
    await server.dispose();
    await smtp.close();
  });

  async function organization(name: string): Promise<string> {
    const created = await postJson(owner.api, "/api/o/create", { name });
    return ((await created.json()) as { id: string }).id;
  }

  const pendingCount = async (organizationId: string) =>
    ((await (await owner.api(`/api/o/invitations/${organizationId}`)).json()) as unknown[]).length;

  it("accepts an invitation to an identity once", async () => {
    const organizationId = await organization("Once Club");
    const invited = await consoleSignUp(server.url, "ivo");
    const sent = await postJson(owner.api, `/api/o/invite/${organizationId}`, {
      identityId: invited.identityId,
      role: "member",
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: string };
    const answers = await sentTogether(server.url, () =>
      postJson(invited.api, `/api/i/accept/${invited.identityId}/${id}`, {}),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 404: attempts - 1 });
    expect(await pendingCount(organizationId)).toBe(0);
  });

  it("accepts an e-mailed link once, whichever identities answer it", async () => {
    const organizationId = await organization("Link Club");
    const sent = await postJson(owner.api, `/api/o/inviteByAddress/${organizationId}`, {
      address: "link@example.com",
      role: "member",
    });
    expect(sent.status).toBe(201);
    const link = /https:\/\/\S+\/invitation\/([\w-]{43})/.exec((await smtp.waitFor("link@example.com")).text);
    const token = link?.[1] ?? "";
    // Whoever opens the link answers it, with any identity they administer.
    const reader = await consoleSignUp(server.url, "reader");
    const identities = [reader.identityId];
    while (identities.length < attempts) {
      const created = await postJson(reader.api, "/api/i/create", {
        fullName: `Reader ${identities.length}`,
      });
      expect(created.status).toBe(201);
      identities.push(((await created.json()) as { id: string }).id);
    }
    const waiting = [...identities];
    const answers = await sentTogether(server.url, () =>
      postJson(reader.api, `/api/invitation/accept/${token}`, { identityId: waiting.shift() }),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 410: attempts - 1 });
    expect(answers.filter(({ status }) => status === 410).map(({ json }) => json?.error)).toEqual(
      Array.from({ length: attempts - 1 }, () => "invitationUsed"),
    );
    expect(await pendingCount(organizationId)).toBe(0);
  });
});
