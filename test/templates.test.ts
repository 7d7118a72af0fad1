import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { templateSchema } from "../src/common/api/template.ts";
import { documentListSchema } from "../src/common/api/summary.ts";
import { consoleSignUp, postJson } from "./support/console.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

const notes = {
  name: "Notes",
  description: "A note-taking app",
  idScopes: ["openid", "profile", "openid"],
  variables: [{ name: "uriBase", description: "Where the app runs" }],
  clientsPublic: [{ redirectUriTemplates: ["{uriBase}/callback"], additionalScopes: ["email"] }],
  clientsBackend: [
    { redirectUriTemplates: ["{uriBase}/server"], tokenEndpointAuthMethod: "client_secret_post" },
  ],
  clientsService: [{ description: "sync" }],
};

describe("application templates", () => {
  it("are created by a signed-in person, who becomes admin, and read by everybody", async () => {
    const owner = await consoleSignUp(server.url, "tara");
    const created = await postJson(owner.api, "/api/a/create", notes);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const own = templateSchema.parse(await (await owner.api(`/api/a/${id}`)).json());
    expect(own).toMatchObject({ name: "Notes", canUpdate: true, admins: [owner.identityId], version: 1 });
    expect(own.idScopes).toEqual(["openid", "profile"]);
    expect(own.homepageTemplate).toBe("{uriBase}");
    const clientIds = [...own.clientsPublic, ...own.clientsBackend, ...own.clientsService].map(
      (client) => client.id,
    );
    expect(new Set(clientIds).size).toBe(3);
    expect(own.clientsBackend[0]).toMatchObject({ accessTokenType: "hmac", accessTokenLifespan: 3600 });

    const anonymous = templateSchema.parse(await (await fetch(`${server.url}/api/a/${id}`)).json());
    expect(anonymous).toMatchObject({ canUpdate: false, admins: [] });
    const list = documentListSchema.parse(await (await fetch(`${server.url}/api/a`)).json());
    const summary = { id, name: "Notes", description: "A note-taking app" };
    expect(list).toContainEqual({ ...summary, canUpdate: false });
    // Its admin sees it marked as their own.
    const ownList = documentListSchema.parse(await (await owner.api("/api/a")).json());
    expect(ownList).toContainEqual({ ...summary, canUpdate: true });

    const activity = activityPageSchema.parse(await (await owner.api("/api/activity")).json());
    expect(activity.items[0]).toMatchObject({
      type: "applicationTemplateCreate",
      applicationTemplates: [{ id }],
    });
  });

  it("ask by default for the OpenID scopes relying parties ask for: openid profile email", async () => {
    const owner = await consoleSignUp(server.url, "nadia");
    const created = await postJson(owner.api, "/api/a/create", { name: "Defaults" });
    const { id } = (await created.json()) as { id: string };

    const template = templateSchema.parse(await (await owner.api(`/api/a/${id}`)).json());
    expect(template.idScopes).toEqual(["openid", "profile", "email"]);
  });

  it("are changed by admins only, never over someone else's newer save", async () => {
    const owner = await consoleSignUp(server.url, "uros");
    const other = await consoleSignUp(server.url, "vesna");
    const { id } = (await (await postJson(owner.api, "/api/a/create", { name: "Chat" })).json()) as {
      id: string;
    };
    const current = templateSchema.parse(await (await owner.api(`/api/a/${id}`)).json());
    const { canUpdate: _canUpdate, id: _id, ...fields } = current;

    expect((await fetch(`${server.url}/api/a/update/${id}`, { method: "POST", body: "{}" })).status).toBe(
      401,
    );
    expect((await postJson(other.api, `/api/a/update/${id}`, { ...fields, name: "Mine" })).status).toBe(403);

    const renamed = await postJson(owner.api, `/api/a/update/${id}`, {
      ...fields,
      name: "Chat 2",
      admins: [owner.identityId, other.identityId],
    });
    expect(templateSchema.parse(await renamed.json())).toMatchObject({ name: "Chat 2", version: 2 });
    const stale = await postJson(owner.api, `/api/a/update/${id}`, { ...fields, name: "Chat 3" });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "conflict" });

    // The added admin may now edit; the change is recorded with its kinds.
    const byOther = await postJson(other.api, `/api/a/update/${id}`, {
      ...fields,
      version: 2,
      name: "Chat 4",
      admins: [owner.identityId, other.identityId],
    });
    expect(byOther.status).toBe(200);
    const activity = activityPageSchema.parse(await (await owner.api("/api/activity")).json());
    expect(activity.items[0]).toMatchObject({
      type: "applicationTemplateUpdate",
      applicationTemplates: [{ id, name: "Chat 4", path: `/a/${id}` }],
      changes: [
        { kind: "otherData", fields: ["name"] },
        { kind: "permissionsAdded", identities: [{ id: other.identityId }] },
      ],
    });
  });

  it("name, for a caller who is not an admin, which of the caller's own identities are", async () => {
    const owner = await consoleSignUp(server.url, "yara");
    const created = await postJson(owner.api, "/api/i/create", { username: "yara-work" });
    const { id: workId } = (await created.json()) as { id: string };
    const work = await consoleSignUp(server.url, "yara", workId);
    const { id } = (await (await postJson(work.api, "/api/a/create", { name: "Wiki" })).json()) as {
      id: string;
    };

    // Signed in with the first identity, the owner learns that their other identity administers it.
    const asOwner = templateSchema.parse(await (await owner.api(`/api/a/${id}`)).json());
    expect(asOwner).toMatchObject({ canUpdate: false, admins: [], ownAdminIdentities: [workId] });
    // Its admin, somebody else and an anonymous visitor are told nothing of the kind.
    const asAdmin = templateSchema.parse(await (await work.api(`/api/a/${id}`)).json());
    expect(asAdmin.ownAdminIdentities).toBeUndefined();
    const stranger = await consoleSignUp(server.url, "zeno");
    const asStranger = templateSchema.parse(await (await stranger.api(`/api/a/${id}`)).json());
    expect(asStranger.ownAdminIdentities).toEqual([]);
    const anonymous = templateSchema.parse(await (await fetch(`${server.url}/api/a/${id}`)).json());
    expect(anonymous.ownAdminIdentities).toBeUndefined();
  });

  it("take a homepage that uses variables added in the same update", async () => {
    const { api } = await consoleSignUp(server.url, "xenia");
    const { id } = (await (await postJson(api, "/api/a/create", { name: "Wiki" })).json()) as { id: string };
    const {
      canUpdate: _canUpdate,
      id: _id,
      ...fields
    } = templateSchema.parse(await (await api(`/api/a/${id}`)).json());
    const updated = await postJson(api, `/api/a/update/${id}`, {
      ...fields,
      homepageTemplate: "{uriBase}/{tenant}/home",
      variables: [{ name: "uriBase" }, { name: "tenant" }],
      // What the console sends for a service client: no lifespans of tokens it never gets.
      clientsService: [{ accessTokenLifespan: 7200, tokenEndpointAuthMethod: "client_secret_basic" }],
    });
    expect(updated.status).toBe(200);
    expect(templateSchema.parse(await updated.json())).toMatchObject({
      homepageTemplate: "{uriBase}/{tenant}/home",
      clientsService: [{ accessTokenLifespan: 7200, tokenEndpointAuthMethod: "client_secret_basic" }],
    });
  });

  it("refuse invalid definitions with a stable code", async () => {
    const { api } = await consoleSignUp(server.url, "wanda");
    const https = "https://x.example/";
    /** A body, the error code, and the field and values the answer names. */
    const cases: [unknown, string, { field?: string; values?: string[] }?][] = [
      [{ name: "" }, "badRequest", { field: "name" }],
      [
        { name: "X", homepageTemplate: "{site}/home" },
        "unknownVariables",
        { field: "homepageTemplate", values: ["site"] },
      ],
      [
        { name: "X", homepageTemplate: "http://example.com" },
        "invalidHomepage",
        { field: "homepageTemplate" },
      ],
      [
        { name: "X", variables: [{ name: "a" }, { name: "b" }, { name: "a" }] },
        "duplicateVariable",
        { field: "variables.2.name", values: ["a"] },
      ],
      [
        { name: "X", clientsPublic: [{ redirectUriTemplates: ["https://x.example/cb#frag"] }] },
        "invalidRedirectUri",
        { field: "clientsPublic.0.redirectUriTemplates" },
      ],
      [
        {
          name: "X",
          clientsBackend: [
            { redirectUriTemplates: [https] },
            { redirectUriTemplates: ["{b}/cb", "{a}/{b}/cb"] },
          ],
        },
        "unknownVariables",
        { field: "clientsBackend.1.redirectUriTemplates", values: ["a", "b"] },
      ],
      [{ name: "X", idScopes: ["open id"] }, "unknownScope", { field: "idScopes.0", values: ["open id"] }],
      [{ name: "X", admins: ["nobody"] }, "unknownIdentity"],
      [{ name: "X", clientsService: [{ id: "made-up" }] }, "badRequest"],
      [
        {
          name: "X",
          clientsBackend: [{ redirectUriTemplates: [https], accessTokenType: "saml" }],
        },
        "badRequest",
      ],
    ];
    for (const [body, error, details] of cases) {
      const response = await postJson(api, "/api/a/create", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = (await response.json()) as { error: string; message: string };
      expect(answer, JSON.stringify(body)).toMatchObject({ error, ...details });
      if (error === "unknownVariables") expect(answer.message).toMatch(/unknown variables: (a, b|site)$/);
    }
    // Loopback http is allowed for developers' apps.
    const local = await postJson(api, "/api/a/create", {
      name: "Local",
      clientsPublic: [{ redirectUriTemplates: ["http://localhost:3000/cb"] }],
    });
    expect(local.status).toBe(201);
  });
});
