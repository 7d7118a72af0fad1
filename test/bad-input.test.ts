import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activityPageSchema, activitySchema } from "../src/common/api/activity.ts";
import { errorCodes } from "../src/common/api/errors.ts";
import { flowErrors } from "../src/common/api/flow.ts";
import { identitySchema } from "../src/common/api/identity.ts";
import { organizationSchema } from "../src/common/api/organization.ts";
import { templateSchema } from "../src/common/api/template.ts";
import { routes } from "../src/common/routes.ts";
import { badRequests, type BadRequest, type KnownData } from "./support/bad-input.ts";
import { consoleApp, consoleSignUp, postJson, type ConsoleApi } from "./support/console.ts";
import { FlowDriver } from "./support/flow-driver.ts";
import { storeEngines } from "./support/postgres.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const stableCodes = new Set<string>([...errorCodes, ...flowErrors]);
/** OAuth error codes are snake_case words; `server_error` is the engine's 500. */
const oauthError = /^(?!server_error$)[a-z_]+$/;

/** Why the answer to a bad request breaks the rules, or undefined when it keeps them. */
async function problemWith(base: string, request: BadRequest): Promise<string | undefined> {
  const where = `${request.method} ${request.path.slice(0, 160)} ${JSON.stringify(request.headers).slice(0, 100)} ${request.body?.slice(0, 100) ?? ""}`;
  let response: Response;
  try {
    response = await fetch(base + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      redirect: "manual",
    });
  } catch (error) {
    return `${where}: ${String(error)}`;
  }
  const text = await response.text();
  const answer = `${where} -> ${response.status}`;
  // A route whose capability has not landed yet says so; that is no fault.
  const notYet = response.status === 501 && (request.method === "HEAD" || text.includes('"notImplemented"'));
  if (response.status >= 500 && !notYet) return `${answer}: ${text.slice(0, 300)}`;
  if (response.status < 400 || notYet || request.method === "HEAD") return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) return request.page || request.engine ? undefined : `${answer}: HTML`;
  if (!type.startsWith("application/json")) return `${answer}: ${type}`;
  const error = (JSON.parse(text) as { error?: unknown }).error;
  if (typeof error !== "string") return `${answer}: no error code`;
  if (stableCodes.has(error) || (request.engine && oauthError.test(error))) return undefined;
  return `${answer}: error ${error}`;
}

/** Sends every request, `width` at a time; returns the problems found. */
async function problems(base: string, requests: BadRequest[], width = 48): Promise<string[]> {
  const found: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const problem = request && (await problemWith(base, request));
      if (problem) found.push(problem);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return found;
}

async function readJson(api: ConsoleApi, path: string): Promise<unknown> {
  const response = await api(path);
  expect(response.status, path).toBe(200);
  return response.json();
}

/** Stores a template, an organization with its app and an identity, and starts a flow. */
async function storeData(base: string) {
  const caller = await consoleSignUp(base, "bad-input");
  const templateFields = {
    name: "Bad input",
    description: "a template",
    homepageTemplate: "{uriBase}/",
    variables: [{ name: "uriBase", description: "where the app lives" }],
    clientsPublic: [{ description: "web", redirectUriTemplates: ["{uriBase}/callback"] }],
    clientsBackend: [{ description: "server", redirectUriTemplates: ["{uriBase}/server"] }],
    admins: [caller.identityId],
  };
  const template = await postJson(caller.api, "/api/a/create", templateFields);
  const { id: templateId } = (await template.json()) as { id: string };
  const organization = await postJson(caller.api, "/api/o/create", { name: "Bad input", description: "" });
  const { id: organizationId } = (await organization.json()) as { id: string };
  const values = [{ name: "uriBase", value: "https://app.example" }];
  const added = organizationSchema.parse(
    await (
      await postJson(caller.api, `/api/o/update/${organizationId}`, {
        name: "Bad input",
        description: "",
        version: 1,
        admins: [caller.identityId],
        applications: [{ templateId, active: true, values }],
      })
    ).json(),
  );
  const application = added.applications?.[0];
  const backendClient = application?.clientsBackend[0]?.id ?? "";
  const live = await FlowDriver.start(base, await consoleApp(base));
  const activity = activityPageSchema.parse(await readJson(caller.api, "/api/activity"));
  return {
    caller,
    live,
    templateId,
    organizationId,
    applicationId: application?.id ?? "",
    clientId: application?.clientsPublic[0]?.id ?? "",
    backendClient,
    activityId: activity.items[0]?.id ?? "",
  };
}

type Stored = Awaited<ReturnType<typeof storeData>>;

/** What the console shows of the stored documents. */
async function snapshot({ caller, templateId, organizationId, activityId }: Stored) {
  return {
    template: templateSchema.parse(await readJson(caller.api, `/api/a/${templateId}`)),
    organization: organizationSchema.parse(await readJson(caller.api, `/api/o/${organizationId}`)),
    identity: identitySchema.parse(await readJson(caller.api, `/api/i/${caller.identityId}`)),
    activity: activitySchema.parse(await readJson(caller.api, `/api/activity/${activityId}`)),
  };
}

function knownData(stored: Stored, before: Awaited<ReturnType<typeof snapshot>>, base: string): KnownData {
  const { caller, live } = stored;
  const { id: _id, canUpdate: _canUpdate, organizationsUsing: _using, ...templateUpdate } = before.template;
  const { version: _version, ...templateFields } = templateUpdate;
  const { organization, identity } = before;
  return {
    ...stored,
    flowId: live.flowId,
    identityId: caller.identityId,
    callerHeaders: (path) => {
      // Signing out would end the console session the other requests prove (so would signing out
      // every other browser, from the flow's browser).
      if (path.endsWith(routes.AuthSignout.path) || path.endsWith(routes.AccountSessionsEndOthers.path))
        return {};
      const cookie = live.jar.header(new URL(path, base).href);
      return { authorization: `Bearer ${caller.tokens.access_token}`, ...(cookie ? { cookie } : {}) };
    },
    bodies: {
      AuthFlowPasswordStart: { emailOrUsername: "someone" },
      AuthFlowCodeStart: { emailOrUsername: "someone@example.com" },
      AuthFlowPasswordComplete: { password: "a long passphrase" },
      AuthFlowCodeComplete: { code: "123456" },
      AuthFlowChooseIdentity: { identity: { id: caller.identityId } },
      AuthFlowProviderStart: { provider: "google" },
      AuthSignout: { location: "/" },
      AccountTotpSetUpComplete: { setUpToken: "a set-up token", code: "123456" },
      IdentityCreate: { username: "someone", email: "someone@example.com", description: "d" },
      IdentityUpdate: {
        version: identity.version,
        username: identity.username,
        fullName: "Full Name",
        pictureUrl: "https://app.example/me.png",
        organizations: [{ organizationId: stored.organizationId, active: true }],
      },
      ApplicationTemplateCreate: templateFields,
      ApplicationTemplateUpdate: templateUpdate,
      OrganizationCreate: { name: organization.name, description: "d" },
      ConnectApp: { kind: "webServer", name: "Bad input app", address: "https://app.example" },
      OrganizationInviteByAddress: { address: "someone@example.com", role: "member" },
      OrganizationUpdate: {
        name: organization.name,
        description: organization.description,
        version: organization.version,
        admins: organization.admins,
        applications: [
          ...(organization.applications ?? []).map(({ id, active, values }) => ({ id, active, values })),
          { templateId: stored.templateId, active: false, values: [{ name: "uriBase", value: "x" }] },
        ],
        rotateSecrets: [stored.backendClient],
      },
    },
  };
}

describe.each(storeEngines)("bad input on $name", ({ url }) => {
  let server: TestServer;
  let stored: Stored;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
    stored = await storeData(server.url);
    before = await snapshot(stored);
  });
  afterAll(() => server.dispose());

  it("answers every route's bad input with a 4xx and a stable error code, and loses nothing", async () => {
    const requests = badRequests(knownData(stored, before, server.url));
    expect(requests.length).toBeGreaterThan(1000);
    expect(await problems(server.url, requests)).toEqual([]);

    expect(await snapshot(stored)).toEqual(before);
    expect((await stored.live.fetch(`${server.url}/api/auth/${stored.live.flowId}`)).status).toBe(200);
    // Thousands of requests, some of which hash a password: a busy machine needs minutes, not seconds.
  }, 240_000);
});
