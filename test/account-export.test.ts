import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountExportSchema, type AccountExport } from "../src/common/api/account-export.ts";
import { activityPageSchema, securityCategories, categoryOf } from "../src/common/api/activity.ts";
import { newId } from "../src/server/ids.ts";
import { insertBlock } from "../src/server/store/blocks.ts";
import { insertCredential } from "../src/server/store/accounts.ts";
import { call } from "./support/account.ts";
import { consoleSignUp, type ConsoleApi } from "./support/console.ts";
import { organizationWithApp, signInToApp } from "./support/organization-admin.ts";
import { storeEngines } from "./support/postgres.ts";
import { accountOfUsername, addAuthenticatorApp, addPasskey } from "./support/second-factors.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

// The account page's "Your data": the export holds every part of what Vrata keeps about the account
// and none of its secrets, and the security activity lists sign-ins and changes newest first, a page
// at a time.

/** Every string inside a stored JSON value (or the value itself when it is no JSON). */
function strings(value: unknown): string[] {
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "object" && parsed !== null) return [value, ...strings(parsed)];
    } catch {
      // Not JSON: the string itself.
    }
    return [value];
  }
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/** A secret as it might be written: as it is, and its bytes (or its decoded bytes) in hex and base64. */
function forms(secret: string): string[] {
  const bytes = [Buffer.from(secret)];
  if (/^[A-Za-z0-9_-]+={0,2}$/.test(secret)) bytes.push(Buffer.from(secret, "base64url"));
  if (/^[0-9a-fA-F]+$/.test(secret) && secret.length % 2 === 0) bytes.push(Buffer.from(secret, "hex"));
  return [
    secret,
    ...bytes.flatMap((data) => [data.toString("hex"), data.toString("base64"), data.toString("base64url")]),
  ].filter((form) => form.length >= 12);
}

describe.each(storeEngines)("the account's data on $name", ({ url }) => {
  let server: TestServer;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer(url ? { postgresUrl: url } : {});
  });
  afterAll(() => server.dispose());

  async function person() {
    const username = `export${++people}`;
    const signedUp = await consoleSignUp(server.url, username);
    return { ...signedUp, username, accountId: await accountOfUsername(server, username) };
  }

  async function download(api: ConsoleApi) {
    const response = await api("/api/account/export");
    expect(response.status).toBe(200);
    const text = await response.text();
    return { response, text, data: accountExportSchema.parse(JSON.parse(text)) };
  }

  /** A person with every kind of sign-in method, identities in two organizations, sessions and a block. */
  async function fullAccount() {
    const someone = await person();
    const { api, username, accountId } = someone;
    const address = `${username}@mail.example`;
    await insertCredential(
      server.db,
      { id: newId(), accountId, provider: "email", providerId: address, displayName: address, data: "{}" },
      Date.now(),
    );
    // Signed in to both apps before a second factor would be asked.
    const first = await organizationWithApp(someone, `${username} North`);
    const second = await organizationWithApp(someone, `${username} South`);
    const northSignIn = await signInToApp(server.url, first.app, username);
    const southSignIn = await signInToApp(server.url, second.app, username);
    await addPasskey(server, api);
    const totpSeed = await addAuthenticatorApp(server, accountId);
    const codes = await call(api, "/api/account/recoveryCodes");
    expect(codes.status).toBe(200);
    const recoveryCodes = codes.json.recoveryCodes as string[];
    const membership = await server.db
      .selectFrom("identity_organizations")
      .select(["id", "identity_id"])
      .where("organization_id", "=", second.app.organizationId)
      .executeTakeFirstOrThrow();
    await insertBlock(
      server.db,
      {
        id: newId(),
        organizationId: second.app.organizationId,
        membershipId: membership.id,
        identityId: membership.identity_id,
        scope: "identity",
        adminNote: "admins only: suspicious refunds",
        userNote: "Write to support to be let back in.",
        blockedBy: someone.identityId,
        createdAt: Date.now(),
      },
      [],
    );
    return {
      ...someone,
      address,
      totpSeed,
      recoveryCodes,
      tokens: [someone.tokens, northSignIn.tokens, southSignIn.tokens],
      organizations: [first, second],
    };
  }

  it("exports every part of the account as a download", async () => {
    const someone = await fullAccount();
    const { response, data } = await download(someone.api);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="vrata-account-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");

    expect(data).toMatchObject({ format: "vrata-account-export", version: 1 });
    expect(data.account.id).toBe(someone.accountId);
    const { credentials } = data;
    expect(credentials.usernames.map(({ username }) => username)).toEqual([someone.username]);
    expect(credentials.emailAddresses).toEqual([
      expect.objectContaining({ address: someone.address, state: "verified", primary: true }),
    ]);
    expect(credentials.password.set).toBe(true);
    expect(credentials.passkeys).toHaveLength(1);
    expect(credentials.passkeys[0]?.createdAt).toMatch(/^\d{4}-/);
    expect(credentials.secondFactors.map(({ kind }) => kind).sort()).toEqual([
      "authenticatorApp",
      "recoveryCodes",
    ]);
    expect(credentials.secondFactors.find(({ kind }) => kind === "recoveryCodes")?.unused).toBe(
      someone.recoveryCodes.length,
    );

    // The identity, in both organizations, by the identifier each of them uses.
    const identity = data.identities.find(({ id }) => id === someone.identityId);
    expect(identity).toMatchObject({ role: "admin", createdByThisAccount: true });
    const names = someone.organizations.map(({ organization }) => organization.name);
    expect(identity?.memberships.map(({ organization }) => organization.name)).toEqual(
      expect.arrayContaining(names),
    );
    for (const [index, { app }] of someone.organizations.entries()) {
      const idToken = someone.tokens[index + 1]?.id_token ?? "";
      const { sub } = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString()) as {
        sub: string;
      };
      const membership = identity?.memberships.find(
        ({ organization }) => organization.id === app.organizationId,
      );
      expect(membership).toMatchObject({ organizationScopedId: sub, status: "active" });
      expect(membership?.applicationsUsed).toEqual([{ id: app.applicationId, name: `${names[index]} app` }]);
      expect(data.appChoices).toContainEqual(
        expect.objectContaining({
          organization: { id: app.organizationId, name: names[index] },
          identity: { organizationScopedId: sub },
        }),
      );
      expect(data.appChoices.find((choice) => choice.application.id === app.applicationId)?.scopes).toContain(
        "openid",
      );
      expect(data.grants).toContainEqual(
        expect.objectContaining({
          application: { id: app.applicationId, name: `${names[index]} app` },
          identityId: someone.identityId,
        }),
      );
    }
    // The block, with the note to the person, and nothing the admins keep to themselves.
    const blocked = identity?.memberships.find(({ organization }) => organization.name === names[1]);
    expect(blocked?.blocks).toEqual([
      expect.objectContaining({ scope: "identity", note: "Write to support to be let back in." }),
    ]);
    expect(JSON.stringify(data)).not.toContain("suspicious refunds");

    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sessions.flatMap(({ apps }) => apps.map(({ organization }) => organization.name))).toEqual(
      expect.arrayContaining(names),
    );
    // The browser each session is in, as Vrata noted it.
    expect(
      data.sessions.every(({ userAgent, lastActiveAt }) => userAgent !== undefined && lastActiveAt),
    ).toBe(true);

    // All of the activity, newest first, as the activity list shows it.
    const listed: string[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const page = activityPageSchema.parse(
        await (await someone.api(`/api/activity${cursor ? `?cursor=${cursor}` : ""}`)).json(),
      );
      listed.push(...page.items.map(({ id }) => id));
      cursor = page.next;
    }
    expect(data.activity.map(({ id }) => id)).toEqual(listed);
    expect(data.activity.map(({ type }) => type)).toEqual(
      expect.arrayContaining(["signIn", "credentialAdd"]),
    );
  });

  it("holds none of the account's secrets, in any encoding", async () => {
    const someone = await fullAccount();
    const { text } = await download(someone.api);
    const credentialRows = await server.db
      .selectFrom("credentials")
      .select(["provider", "data"])
      .where("account_id", "=", someone.accountId)
      .execute();
    // Every value of a credential's data but a passkey's public flags and names is secret.
    const credentialSecrets = credentialRows.flatMap((row) => strings(row.data));
    expect(credentialRows.map(({ provider }) => provider)).toEqual(
      expect.arrayContaining(["password", "passkey", "totp", "recoveryCodes"]),
    );
    const oidcRows = await server.db.selectFrom("oidc_models").select(["id", "uid", "grant_id"]).execute();
    const sessionRows = await server.db
      .selectFrom("sessions")
      .select(["id", "secret_hash", "flow_id"])
      .execute();
    const grantRows = await server.db.selectFrom("grant_accounts").select("grant_id").execute();
    const secrets = [
      ...credentialSecrets,
      someone.totpSeed,
      ...someone.recoveryCodes,
      ...someone.tokens.flatMap((tokens) =>
        [tokens.access_token, tokens.refresh_token, tokens.id_token].filter((token) => token !== undefined),
      ),
      ...oidcRows.flatMap((row) => [row.id, row.uid, row.grant_id].filter((value) => value !== null)),
      ...sessionRows.flatMap((row) => [row.id, row.secret_hash, row.flow_id]),
      ...grantRows.map((row) => row.grant_id),
    ].filter((secret) => secret.length >= 12);
    expect(secrets.length).toBeGreaterThan(20);
    for (const secret of secrets) for (const form of forms(secret)) expect(text).not.toContain(form);
    // And no field that would carry one, whatever its value.
    for (const field of ["hash", "publicKey", "counter", "secret", "userHandle", "seed", "token"])
      expect(text).not.toContain(`"${field}"`);
  });

  it("needs the person's console sign-in", async () => {
    const response = await fetch(`${server.url}/api/account/export`);
    expect(response.status).toBe(401);
  });

  it("lists the security activity newest first, a page at a time", async () => {
    const someone = await fullAccount();
    const seen: AccountExport["activity"] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await someone.api(`/api/account/activity?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = activityPageSchema.parse(await response.json());
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items);
      cursor = page.next;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen.map(({ id }) => id)).size).toBe(seen.length);
    const times = seen.map(({ timestamp }) => timestamp);
    expect(times).toEqual([...times].sort().reverse());
    // Sign-ins and changes of sign-in methods; not the organizations the person made.
    for (const entry of seen) expect(securityCategories).toContain(categoryOf(entry.type));
    const types = seen.map(({ type }) => type);
    expect(types).toEqual(expect.arrayContaining(["signIn", "credentialAdd", "credentialUpdate"]));
    expect(types).not.toContain("organizationCreate");
    expect(seen.filter(({ type }) => type === "signIn").length).toBeGreaterThanOrEqual(3);

    for (const query of ["limit=0", "limit=21", "limit=x", "cursor=nonsense", "other=1"])
      expect((await someone.api(`/api/account/activity?${query}`)).status).toBe(400);
  });
});
