import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema } from "../src/common/api/activity.ts";
import { publicApplicationSchema, type Organization } from "../src/common/api/organization.ts";
import { templateSchema } from "../src/common/api/template.ts";
import { newId } from "../src/server/ids.ts";
import { findClientMetadata } from "../src/server/oidc/clients.ts";
import { insertDocument } from "../src/server/store/documents.ts";
import type { TestApp } from "./support/apps.ts";
import { consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { internalHostSpellings } from "./support/internal-hosts.ts";
import {
  organizationWithApp,
  readOrganization,
  signInThrough,
  signInToApp,
  updateOrganization,
  type ConsoleUser,
} from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// Per-client settings of application templates for signing out and for pushed authorization
// requests: saved and checked with the template, filled in with an organization's values, and
// obeyed by the engine.

/** Where the organizations' apps are (organizationWithApp's `uriBase`). */
const uriBase = "https://members.example";

/** A public client that returns people to two places after sign-out and must push its requests. */
const pushingPublicClient = {
  redirectUriTemplates: ["{uriBase}/callback"],
  postLogoutRedirectUriTemplates: ["{uriBase}/bye", "{uriBase}/bye", "http://localhost:3000/bye"],
  requirePushedAuthorizationRequests: true,
};
/** A backend client that is told of logouts on the back channel. */
const notifiedBackendClient = {
  redirectUriTemplates: ["{uriBase}/server/callback"],
  postLogoutRedirectUriTemplates: ["{uriBase}/server/bye"],
  backchannelLogoutUriTemplate: "{uriBase}/oidc/backchannel-logout",
  tokenEndpointAuthMethod: "client_secret_post",
};

/** The template's fields of a client as the server answers them, without the schema's defaults. */
async function rawClients(api: ConsoleApi, id: string) {
  const answer = (await (await api(`/api/a/${id}`)).json()) as Record<
    "clientsPublic" | "clientsBackend",
    Record<string, unknown>[]
  >;
  return { clientsPublic: answer.clientsPublic, clientsBackend: answer.clientsBackend };
}

/** What an update of the template sends: its fields as read, version included. */
async function editableFields(api: ConsoleApi, id: string) {
  const {
    canUpdate: _canUpdate,
    id: _id,
    ...fields
  } = templateSchema.parse(await (await api(`/api/a/${id}`)).json());
  return fields;
}

async function createTemplate(api: ConsoleApi, body: Record<string, unknown>): Promise<string> {
  const created = await postJson(api, "/api/a/create", body);
  expect(created.status, await created.clone().text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** The answer of a request the server must refuse: 400 with its code, field and values. */
async function expectRefused(response: Response, expected: Record<string, unknown>, about: string) {
  expect(response.status, about).toBe(400);
  expect(await response.json(), about).toMatchObject(expected);
}

/** The engine's metadata of a client, as it reads it for every request of the client. */
async function metadataOf(server: TestServer, clientId: string) {
  const metadata = await findClientMetadata(server.db, server.issuer, clientId);
  expect(metadata, `client ${clientId}`).toBeDefined();
  return metadata ?? {};
}

/** A public client's plain authorization request, as a browser opens it: where the engine sends it. */
async function plainAuthorization(server: TestServer, app: TestApp): Promise<URL> {
  const config = await client.discovery(new URL(server.issuer), app.clientId, undefined, client.None());
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope: "openid",
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
    code_challenge_method: "S256",
    state: client.randomState(),
  });
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location") ?? "", server.issuer);
}

describe.each(storeEngines)("sign-out and pushed request settings of templates on $name", ({ url }) => {
  let server: TestServer;
  let owner: ConsoleUser;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    owner = await consoleSignUp(server.url, "lena");
  });
  afterAll(() => server.dispose());

  it("are saved with the template, each URI once, and default to none", async () => {
    const id = await createTemplate(owner.api, {
      name: "Members",
      variables: [{ name: "uriBase" }],
      clientsPublic: [pushingPublicClient, { redirectUriTemplates: ["{uriBase}/plain"] }],
      clientsBackend: [notifiedBackendClient],
    });
    const { clientsPublic, clientsBackend } = await rawClients(owner.api, id);
    expect(clientsPublic[0]).toMatchObject({
      postLogoutRedirectUriTemplates: ["{uriBase}/bye", "http://localhost:3000/bye"],
      requirePushedAuthorizationRequests: true,
    });
    expect(clientsPublic[0]).not.toHaveProperty("backchannelLogoutUriTemplate");
    expect(clientsPublic[1]).toMatchObject({
      postLogoutRedirectUriTemplates: [],
      requirePushedAuthorizationRequests: false,
    });
    expect(clientsBackend[0]).toMatchObject({
      postLogoutRedirectUriTemplates: ["{uriBase}/server/bye"],
      backchannelLogoutUriTemplate: "{uriBase}/oidc/backchannel-logout",
      requirePushedAuthorizationRequests: false,
    });

    // Changed by an update like any other field, and recorded as a change of the clients.
    const fields = await editableFields(owner.api, id);
    const [backend] = fields.clientsBackend;
    const updated = await postJson(owner.api, `/api/a/update/${id}`, {
      ...fields,
      clientsBackend: [
        { ...backend, backchannelLogoutUriTemplate: "", requirePushedAuthorizationRequests: true },
      ],
    });
    expect(updated.status).toBe(200);
    expect((await rawClients(owner.api, id)).clientsBackend[0]).toMatchObject({
      backchannelLogoutUriTemplate: "",
      requirePushedAuthorizationRequests: true,
    });
    const activity = activityPageSchema.parse(await (await owner.api("/api/activity")).json());
    expect(activity.items[0]).toMatchObject({
      type: "applicationTemplateUpdate",
      changes: [{ kind: "otherData", fields: ["clientsBackend"] }],
    });
  });

  it("refuse insecure or malformed URIs and unknown variables at their field", async () => {
    const https = ["https://app.example/callback"];
    const publicWith = (fields: object) => ({ clientsPublic: [{ redirectUriTemplates: https, ...fields }] });
    const backendWith = (fields: object) => ({
      clientsBackend: [{ redirectUriTemplates: https, ...fields }],
    });
    const postLogoutField = "clientsPublic.0.postLogoutRedirectUriTemplates";
    const backchannelField = "clientsBackend.0.backchannelLogoutUriTemplate";
    const cases: [object, Record<string, unknown>][] = [
      [
        publicWith({ postLogoutRedirectUriTemplates: ["http://app.example/bye"] }),
        { error: "invalidPostLogoutRedirectUri", field: postLogoutField },
      ],
      [
        backendWith({ postLogoutRedirectUriTemplates: ["https://app.example/bye#done"] }),
        { error: "invalidPostLogoutRedirectUri", field: "clientsBackend.0.postLogoutRedirectUriTemplates" },
      ],
      [
        publicWith({ postLogoutRedirectUriTemplates: ["{site}/bye", "{uriBase}/{site}/bye"] }),
        { error: "unknownVariables", field: postLogoutField, values: ["site"] },
      ],
      [
        publicWith({ postLogoutRedirectUriTemplates: ["https://app.example/bye", ""] }),
        { error: "badRequest", field: `${postLogoutField}.1` },
      ],
      [
        publicWith({
          postLogoutRedirectUriTemplates: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`),
        }),
        { error: "badRequest", field: postLogoutField },
      ],
      [
        backendWith({ backchannelLogoutUriTemplate: "not a URL" }),
        { error: "invalidBackchannelLogoutUri", field: backchannelField },
      ],
      [
        backendWith({ backchannelLogoutUriTemplate: "ftp://app.example/logout" }),
        { error: "invalidBackchannelLogoutUri", field: backchannelField },
      ],
      [
        backendWith({ backchannelLogoutUriTemplate: "http://app.example/logout" }),
        { error: "invalidBackchannelLogoutUri", field: backchannelField },
      ],
      [
        backendWith({ backchannelLogoutUriTemplate: "{uriBase}/{tenant}/logout" }),
        { error: "unknownVariables", field: backchannelField, values: ["tenant"] },
      ],
      // A public client has no server to be told of logouts; a service client signs nobody in.
      [
        publicWith({ backchannelLogoutUriTemplate: "https://app.example/logout" }),
        { error: "badRequest", field: "clientsPublic.0" },
      ],
      [
        { clientsService: [{ requirePushedAuthorizationRequests: true }] },
        { error: "badRequest", field: "clientsService.0" },
      ],
      [
        publicWith({ requirePushedAuthorizationRequests: "yes" }),
        { error: "badRequest", field: "clientsPublic.0.requirePushedAuthorizationRequests" },
      ],
    ];
    for (const [clients, expected] of cases) {
      const body = { name: "Refused", variables: [{ name: "uriBase" }], ...clients };
      await expectRefused(
        await postJson(owner.api, "/api/a/create", body),
        expected,
        JSON.stringify(clients),
      );
    }

    // An update is checked the same way.
    const id = await createTemplate(owner.api, { name: "Checked", ...backendWith({}) });
    const fields = await editableFields(owner.api, id);
    const [backend] = fields.clientsBackend;
    await expectRefused(
      await postJson(owner.api, `/api/a/update/${id}`, {
        ...fields,
        clientsBackend: [{ ...backend, backchannelLogoutUriTemplate: "https://app.example/logout#now" }],
      }),
      { error: "invalidBackchannelLogoutUri", field: backchannelField },
      "update",
    );

    // Loopback http is allowed for developers' apps where browsers go; Vrata itself calls no internal
    // address (--backchannel-logout-private is not given to this server).
    await createTemplate(owner.api, {
      name: "Local",
      ...backendWith({ postLogoutRedirectUriTemplates: ["http://127.0.0.1:3000/bye"] }),
    });
  });

  it("refuse a back-channel logout URI on an internal address, however it is spelled", async () => {
    const backchannelField = "clientsBackend.0.backchannelLogoutUriTemplate";
    for (const scheme of ["https", "http"]) {
      for (const host of internalHostSpellings) {
        const uri = `${scheme}://${host}:8443/logout`;
        await expectRefused(
          await postJson(owner.api, "/api/a/create", {
            name: "Internal",
            clientsBackend: [
              { redirectUriTemplates: ["https://app.example/callback"], backchannelLogoutUriTemplate: uri },
            ],
          }),
          { error: "internalBackchannelLogoutUri", field: backchannelField },
          uri,
        );
      }
    }
    // A name is checked when Vrata calls it, and an address on the internet is one Vrata may call.
    for (const uri of ["https://logout.app.example/logout", "https://93.184.216.34/logout"]) {
      await createTemplate(owner.api, {
        name: "External",
        clientsBackend: [
          { redirectUriTemplates: ["https://app.example/callback"], backchannelLogoutUriTemplate: uri },
        ],
      });
    }
  });

  it("refuse an organization's values that make a sign-out URI insecure", async () => {
    const templateId = await createTemplate(owner.api, {
      name: "Values",
      homepageTemplate: "https://values.example",
      variables: [{ name: "signOutBase" }, { name: "serverBase" }],
      clientsBackend: [
        {
          redirectUriTemplates: ["https://values.example/callback"],
          postLogoutRedirectUriTemplates: ["{signOutBase}/bye"],
          backchannelLogoutUriTemplate: "{serverBase}/logout",
        },
      ],
    });
    const { id } = (await (await postJson(owner.api, "/api/o/create", { name: "Values club" })).json()) as {
      id: string;
    };
    const organization = await readOrganization(owner.api, id);
    const adding = (signOutBase: string, serverBase: string) =>
      updateOrganization(owner.api, organization, {
        applications: [
          {
            templateId,
            active: true,
            values: [
              { name: "signOutBase", value: signOutBase },
              { name: "serverBase", value: serverBase },
            ],
          },
        ],
      });
    await expectRefused(
      await adding("http://values.example", "https://values.example"),
      { error: "invalidPostLogoutRedirectUri" },
      "post-logout",
    );
    await expectRefused(
      await adding("https://values.example", "https://values.example#x"),
      { error: "invalidBackchannelLogoutUri" },
      "back-channel",
    );
    for (const internal of ["https://0x7f000001", "https://[::ffff:a9fe:a9fe]", "http://localhost:3000"]) {
      await expectRefused(
        await adding("https://values.example", internal),
        { error: "internalBackchannelLogoutUri" },
        internal,
      );
    }
    expect((await adding("https://values.example", "https://server.values.example")).status).toBe(200);
  });

  describe("an organization's app", () => {
    let organization: Organization;
    let pushing: TestApp;
    let notified: TestApp & { secret: string };

    beforeAll(async () => {
      let app: TestApp;
      ({ organization, app } = await organizationWithApp(owner, "Signing out club", {
        clientsPublic: [pushingPublicClient],
        clientsBackend: [notifiedBackendClient],
      }));
      pushing = app;
      const backendId = organization.applications?.[0]?.clientsBackend[0]?.id ?? "";
      const secret = organization.secrets?.find((made) => made.clientId === backendId)?.secret ?? "";
      notified = { ...app, clientId: backendId, redirectUri: `${uriBase}/server/callback`, secret };
    });

    it("has clients whose metadata carries the settings with the organization's values", async () => {
      expect(await metadataOf(server, pushing.clientId)).toMatchObject({
        post_logout_redirect_uris: [`${uriBase}/bye`, "http://localhost:3000/bye"],
        require_pushed_authorization_requests: true,
      });
      expect(await metadataOf(server, pushing.clientId)).not.toHaveProperty("backchannel_logout_uri");
      expect(await metadataOf(server, notified.clientId)).toMatchObject({
        post_logout_redirect_uris: [`${uriBase}/server/bye`],
        backchannel_logout_uri: `${uriBase}/oidc/backchannel-logout`,
        backchannel_logout_session_required: true,
        require_pushed_authorization_requests: false,
      });
    });

    it("shows its admins the sign-out URIs and the pushed requests its clients are set up with", async () => {
      const page = publicApplicationSchema.parse(
        await (await owner.api(`/api/o/app/${organization.id}/${pushing.applicationId}`)).json(),
      );
      expect(page.clients).toEqual([
        expect.objectContaining({
          kind: "public",
          id: pushing.clientId,
          postLogoutRedirectUris: [`${uriBase}/bye`, "http://localhost:3000/bye"],
          requirePushedAuthorizationRequests: true,
        }),
        expect.objectContaining({
          kind: "backend",
          id: notified.clientId,
          postLogoutRedirectUris: [`${uriBase}/server/bye`],
          backchannelLogoutUri: `${uriBase}/oidc/backchannel-logout`,
          requirePushedAuthorizationRequests: false,
        }),
      ]);
      expect(page.clients?.[0]).not.toHaveProperty("backchannelLogoutUri");
    });

    it("is refused a sign-in request it did not push when it must, and signs in with a pushed one", async () => {
      const refused = await plainAuthorization(server, pushing);
      expect(refused.origin + refused.pathname).toBe(pushing.redirectUri);
      expect(Object.fromEntries(refused.searchParams)).toMatchObject({
        error: "invalid_request",
        error_description: "Pushed Authorization Request must be used",
      });

      const driver = await FlowDriver.startPushed(server.issuer, pushing);
      const { tokens } = await signInThrough(driver, "pushing-person");
      expect(tokens.claims()).toMatchObject({ azp: pushing.clientId });
    });

    it("signs people in through its backend client, whose requests need not be pushed", async () => {
      const driver = await FlowDriver.start(
        server.issuer,
        notified,
        { scope: "openid profile" },
        client.ClientSecretPost(notified.secret),
      );
      const { tokens } = await signInThrough(driver, "notified-person");
      expect(tokens.claims()).toMatchObject({ azp: notified.clientId });
    });

    it("may send people after sign-out only to its post-logout redirect URIs", async () => {
      const logout = (postLogoutRedirectUri: string) =>
        fetch(
          `${server.issuer}/auth/oidc/logout?${new URLSearchParams({
            client_id: pushing.clientId,
            post_logout_redirect_uri: postLogoutRedirectUri,
          }).toString()}`,
          { redirect: "manual" },
        );
      expect((await logout(`${uriBase}/bye`)).status).toBe(200);
      expect((await logout("http://localhost:3000/bye")).status).toBe(200);
      expect((await logout(`${uriBase}/elsewhere`)).status).toBe(400);
    });
  });

  it("read as their defaults in templates and organizations' copies stored before them", async () => {
    /** A template document as stored before clients had sign-out and pushed request settings. */
    const oldTemplate = {
      name: "Stored long ago",
      description: "",
      homepageTemplate: "{uriBase}",
      idScopes: ["openid", "profile"],
      variables: [{ name: "uriBase", description: "" }],
      clientsPublic: [
        {
          id: newId(),
          description: "",
          additionalScopes: ["offline_access"],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          redirectUriTemplates: ["{uriBase}/callback"],
        },
      ],
      clientsBackend: [
        {
          id: newId(),
          description: "",
          additionalScopes: [],
          accessTokenType: "hmac",
          accessTokenLifespan: 3600,
          idTokenLifespan: 3600,
          redirectUriTemplates: ["{uriBase}/server/callback"],
          tokenEndpointAuthMethod: "client_secret_basic",
        },
      ],
      clientsService: [],
      admins: [owner.identityId],
    };
    const templateId = newId();
    await insertDocument(server.db, "application_templates", templateId, oldTemplate, Date.now());
    const defaults = { postLogoutRedirectUriTemplates: [], requirePushedAuthorizationRequests: false };
    expect(await rawClients(owner.api, templateId)).toEqual({
      clientsPublic: [{ ...oldTemplate.clientsPublic[0], ...defaults }],
      clientsBackend: [{ ...oldTemplate.clientsBackend[0], ...defaults, backchannelLogoutUriTemplate: "" }],
    });

    // Saved again unchanged, it records no change of its clients.
    const fields = await editableFields(owner.api, templateId);
    expect((await postJson(owner.api, `/api/a/update/${templateId}`, fields)).status).toBe(200);
    const activity = activityPageSchema.parse(await (await owner.api("/api/activity")).json());
    expect(activity.items[0]?.applicationTemplates?.[0]?.id).not.toBe(templateId);

    // An organization keeps its copy of the template as it was when the app was added.
    const { admins: _admins, ...copy } = oldTemplate;
    const application = {
      id: newId(),
      active: true,
      templateId,
      applicationTemplate: copy,
      values: [{ name: "uriBase", value: uriBase }],
      clientsPublic: [{ id: newId(), templateClientId: copy.clientsPublic[0]?.id ?? "" }],
      clientsBackend: [{ id: newId(), templateClientId: copy.clientsBackend[0]?.id ?? "" }],
      clientsService: [],
    };
    const organizationId = newId();
    await insertDocument(
      server.db,
      "organizations",
      organizationId,
      {
        name: "Long-standing club",
        description: "",
        admins: [owner.identityId],
        applications: [application],
      },
      Date.now(),
    );
    const page = publicApplicationSchema.parse(
      await (await owner.api(`/api/o/app/${organizationId}/${application.id}`)).json(),
    );
    expect(
      page.clients?.map(({ postLogoutRedirectUris, requirePushedAuthorizationRequests }) => ({
        postLogoutRedirectUris,
        requirePushedAuthorizationRequests,
      })),
    ).toEqual([
      { postLogoutRedirectUris: [], requirePushedAuthorizationRequests: false },
      { postLogoutRedirectUris: [], requirePushedAuthorizationRequests: false },
    ]);

    // Saving the organization makes its clients from the old copy; people sign in to them.
    const organization = await readOrganization(owner.api, organizationId);
    expect((await updateOrganization(owner.api, organization, { rotateSecrets: [] })).status).toBe(200);
    const app: TestApp = {
      organizationId,
      applicationId: application.id,
      clientId: application.clientsPublic[0]?.id ?? "",
      redirectUri: `${uriBase}/callback`,
    };
    expect(await metadataOf(server, app.clientId)).toMatchObject({
      post_logout_redirect_uris: [],
      require_pushed_authorization_requests: false,
    });
    const { tokens } = await signInToApp(server.issuer, app, "long-standing-person");
    expect(tokens.claims()).toMatchObject({ azp: app.clientId });
  });
});
