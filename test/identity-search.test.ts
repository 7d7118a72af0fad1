import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identitySearchSchema } from "../src/common/api/identity.ts";
import { organizationInvitationSchema, type InvitationRole } from "../src/common/api/invitation.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// People are picked by name (admins, invitations) among the identities the caller's account reaches,
// never among anyone else's, not even the members and admins of the organizations it administers.

type Person = Awaited<ReturnType<typeof consoleSignUp>>;

describe("identity search", () => {
  let server: TestServer;
  let owner: Person;
  let member: Person;
  let coAdmin: Person;
  beforeAll(async () => {
    server = await startTestServer();
    [owner, member, coAdmin] = await Promise.all([
      consoleSignUp(server.url, "search-owner"),
      consoleSignUp(server.url, "search-member"),
      consoleSignUp(server.url, "search-coadmin"),
    ]);
  });
  afterAll(() => server.dispose());

  const search = async (api: ConsoleApi, query: string) => {
    const response = await api(`/api/i/search?${query}`);
    expect(response.status, query).toBe(200);
    return identitySearchSchema.parse(await response.json());
  };
  const ids = async (api: ConsoleApi, query: string) =>
    (await search(api, query)).identities.map((identity) => identity.id);

  async function createIdentity(api: ConsoleApi, fields: Record<string, string>): Promise<string> {
    const response = await postJson(api, "/api/i/create", fields);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** `person` joins an organization of the owner's in the role, invited and accepting. */
  async function join(organizationId: string, person: Person, role: InvitationRole): Promise<void> {
    const invited = await postJson(owner.api, `/api/o/invite/${organizationId}`, {
      identityId: person.identityId,
      role,
    });
    const invitation = organizationInvitationSchema.parse(await invited.json());
    const accepted = await postJson(person.api, `/api/i/accept/${person.identityId}/${invitation.id}`, {});
    expect(accepted.status).toBe(200);
  }

  it("finds the caller's own identities by the beginnings of the words of their names, whatever the case", async () => {
    const work = await createIdentity(owner.api, {
      givenName: "Žiga",
      fullName: "Žiga Novak",
      email: "ziga@work.example",
    });
    expect(await ids(owner.api, "q=novak")).toEqual([work]);
    expect(await ids(owner.api, "q=%C5%BDIGA%20nov")).toEqual([work]);
    expect(await ids(owner.api, "q=work.example")).toEqual([work]);
    expect(await ids(owner.api, "q=ziga%40work.example")).toEqual([work]);
    expect(await ids(owner.api, "q=exam")).toEqual([work]);
    // Only the beginnings of words: not their middles, and not a pattern.
    expect(await ids(owner.api, "q=ovak")).toEqual([]);
    expect(await ids(owner.api, "q=n_vak")).toEqual([]);
    expect(await ids(owner.api, "q=%C5%BDiga%20owner")).toEqual([]);
    expect(await ids(owner.api, `q=${work}`)).toEqual([work]);
    expect(await ids(owner.api, "q=search-owner")).toEqual([owner.identityId]);
    expect(await ids(owner.api, "q=nobody-has-this-name")).toEqual([]);
    // An empty query lists them; what is answered names, never describes.
    const all = await search(owner.api, "");
    expect(all.identities.map((identity) => identity.id).sort()).toEqual([owner.identityId, work].sort());
    expect(all.identities.find((identity) => identity.id === work)).toEqual({
      id: work,
      givenName: "Žiga",
      fullName: "Žiga Novak",
      email: "ziga@work.example",
    });
  });

  it("answers at most `limit` identities and says when there are more", async () => {
    const person = await consoleSignUp(server.url, "search-many");
    for (const name of ["Ana", "Andrej", "Anja"]) await createIdentity(person.api, { givenName: name });
    await createIdentity(person.api, { fullName: "Nina Andersen" });
    const limited = await search(person.api, "q=an&limit=2");
    expect(limited.identities.map((identity) => identity.givenName)).toEqual(["Ana", "Andrej"]);
    expect(limited.more).toBe(true);
    // Names that start with the query come first, then those with a later word that does; the
    // account's own "search-many" has none.
    const all = await search(person.api, "q=an&limit=4");
    expect(all.identities.map((identity) => identity.givenName ?? identity.fullName)).toEqual([
      "Ana",
      "Andrej",
      "Anja",
      "Nina Andersen",
    ]);
    expect(all.more).toBe(false);
  });

  it("does not find other people's identities, even the members and admins of an administered organization", async () => {
    const created = await postJson(owner.api, "/api/o/create", { name: "Searchers" });
    const { id: organizationId } = (await created.json()) as { id: string };
    await join(organizationId, member, "member");
    await join(organizationId, coAdmin, "admin");

    for (const other of [member, coAdmin]) {
      expect(await ids(owner.api, `q=${other.identityId}`)).toEqual([]);
      expect(await ids(owner.api, "q=search-")).not.toContain(other.identityId);
      // Nor does it work the other way round.
      expect(await ids(other.api, "q=search-owner")).toEqual([]);
      expect(await ids(other.api, `q=${owner.identityId}`)).toEqual([]);
    }
  });

  it("refuses bad input with a 4xx and a stable code", async () => {
    const refusals: [string, number][] = [
      [`q=${"x".repeat(101)}`, 400],
      ["limit=0", 400],
      ["limit=21", 400],
      ["limit=two", 400],
      ["limit=1.5", 400],
      ["q=a&q=b", 400],
      ["q=%00", 400],
      ["sort=name", 400],
    ];
    for (const [query, status] of refusals) {
      const response = await owner.api(`/api/i/search?${query}`);
      expect(response.status, query).toBe(status);
      expect(await response.json(), query).toMatchObject({ error: "badRequest" });
    }
    const signedOut = await fetch(`${server.url}/api/i/search?q=search`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toMatchObject({ error: "unauthorized" });
    // The bare path answers too, as for every API-only route.
    expect((await owner.api("/i/search?q=search-owner")).status).toBe(200);
  });
});
